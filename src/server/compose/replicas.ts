import type { FastifyBaseLogger } from 'fastify';
import type { ClusterStatus } from '../../shared/bff-api.js';
import type { BatchTracker } from '../cache/batch.js';
import type { EventArchiver } from '../jobs/event-archiver.js';
import type { BatchPipeline } from '../jobs/pipeline.js';
import type { ClientMissLimiter } from '../client-limit.js';
import type { AppConfig, ReplicasConfig } from '../config.js';
import { NewsChannel, type ReplicaNews } from '../replicas/news-channel.js';
import { Membership } from '../replicas/membership.js';
import { MissConnections } from '../replicas/miss-connections.js';
import { SharedAnswers } from '../replicas/shared-answers.js';
import { SharedMissLimiter } from '../replicas/shared-miss-limiter.js';
import { SharedQuota } from '../replicas/shared-quota.js';
import { SharedSessions } from '../replicas/shared-sessions.js';
import type { Secret } from '../secret.js';
import { pruneShared } from '../store/shared-pruning.js';
import type { HistoryStore } from '../store/history-store.js';

/** Housekeeping of the shared tables, at most this often per replica. */
const PRUNE_EVERY_MS = 60_000;
/** Events archived are announced at most this often (a burst of fetches is one message). */
const ARCHIVED_NEWS_MS = 1_000;

export interface Replicas {
  membership: Membership;
  quota: SharedQuota;
  answers: SharedAnswers;
  missLimiter(local: ClientMissLimiter, perMinute: number): SharedMissLimiter;
  /** Sessions (DASHBOARD_TOKEN sign-ins) valid on every replica. */
  sessions(): SharedSessions;
  /** Tells the others when events were archived here (throttled). */
  announceArchived(): void;
  /** Tells the leader a delivery was queued here. */
  announceQueued(): void;
  /** Tells the others an upstream answer showed a newer batch. */
  announceBatchSeen(asOfText: string): void;
  /** Tells the others the store changed (a batch was recorded): their memoised answers are old. */
  announceStoreChanged(): void;
  /** Connects the replica's parts to the others' news, then joins (heartbeat, lease). */
  start(parts: {
    batch: BatchTracker;
    pipeline: BatchPipeline;
    archiver: EventArchiver;
  }): Promise<void>;
  status(): ClusterStatus;
  stop(): Promise<void>;
}

export interface ReplicasDeps {
  config: ReplicasConfig;
  databaseUrl: Secret;
  store: HistoryStore;
  quotaReserve: number | null;
  /** Upstream answers older than this are dropped from the shared table (stale-if-error). */
  keepAnswersMs: number;
  /** Longest wait for another replica's fetch of the same key. */
  lockWaitMs: number;
  now: () => number;
  logger: FastifyBaseLogger;
}

/**
 * Several replicas on one PostgreSQL acting as one BFF (issue 9), wired in one place: the
 * shared budget ledger, the shared answer cache with cross-replica single-flight, the shared
 * per-client miss counts, the leader lease, and LISTEN/NOTIFY news between replicas.
 */
export function composeReplicas(deps: ReplicasDeps): Replicas {
  const { store, now, logger } = deps;
  const pool = store.pool;
  if (!pool) throw new Error('replicas need DATABASE_URL (a PostgreSQL server)');
  const db = store.db;
  let lastPrune = -Infinity;
  let archivedTimer: NodeJS.Timeout | null = null;
  let onBeat: () => Promise<void> = async () => {};

  const membership = new Membership({
    db,
    name: deps.config.replicaName,
    leaseSeconds: deps.config.leaseSeconds,
    logger,
    onBeat: () => onBeat(),
  });
  const reportStore = (ok: boolean, error?: unknown): void => membership.reportStore(ok, error);
  // A miss's connection, lent by the answer cache to the ledger (one connection per miss).
  const connections = new MissConnections();
  const quota = new SharedQuota({
    pool,
    connections,
    reserve: deps.quotaReserve,
    now,
    logger,
    replicasSeen: () => membership.replicasSeen(),
    reportStore,
  });
  const answers = new SharedAnswers({
    pool,
    now,
    logger,
    lockWaitMs: deps.lockWaitMs,
    reportStore,
    storeOk: () => membership.storeOk(),
    connections,
  });
  let sessions: SharedSessions | null = null;
  let handle: (message: ReplicaNews) => void = () => {};
  let resync: () => void = () => {};
  const channel = new NewsChannel({
    url: deps.databaseUrl,
    db,
    holder: membership.holder,
    logger,
    onMessage: (message) => handle(message),
    onResync: () => resync(),
  });

  return {
    membership,
    quota,
    answers,
    missLimiter: (local, perMinute) =>
      new SharedMissLimiter({ db, now, perMinute, local, reportStore }),
    sessions: () =>
      (sessions ??= new SharedSessions({
        db,
        now,
        reportStore,
        announceRevoked: (idHash) => channel.publish({ kind: 'session-revoked', id_hash: idHash }),
      })),
    announceArchived: () => {
      if (archivedTimer) return;
      archivedTimer = setTimeout(() => {
        archivedTimer = null;
        channel.publish({ kind: 'store-changed' });
      }, ARCHIVED_NEWS_MS);
      archivedTimer.unref();
    },
    announceQueued: () => channel.publish({ kind: 'outbox' }),
    announceBatchSeen: (asOfText) => channel.publish({ kind: 'batch-seen', as_of: asOfText }),
    announceStoreChanged: () => channel.publish({ kind: 'store-changed' }),
    async start({ batch, pipeline, archiver }) {
      const observe = (asOfText: string): void => {
        if (batch.observe(asOfText, now())) {
          logger.info({ as_of: asOfText }, 'new upstream batch, as another replica saw it');
        }
        pipeline.seen();
      };
      handle = (message) => {
        if (message.kind === 'batch-seen') observe(message.as_of);
        else if (message.kind === 'store-changed') {
          store.changedElsewhere().catch((error: unknown) => reportStore(false, error));
        } else if (message.kind === 'session-revoked') sessions?.forget(message.id_hash);
        else pipeline.send();
      };
      // News sent while this replica was not listening is read from the store instead.
      resync = () => {
        // A sign-out missed meanwhile must not stay valid here: every session is asked again.
        sessions?.forgetAll();
        store.changedElsewhere().then(
          () => {
            const latest = store.lastCoverage.latest;
            if (latest) observe(latest);
            pipeline.send();
          },
          (error: unknown) => reportStore(false, error),
        );
      };
      onBeat = async () => {
        await quota.refresh();
        archiver.retryFailed();
        if (now() - lastPrune >= PRUNE_EVERY_MS) {
          lastPrune = now();
          await pruneShared(db, now(), now() - deps.keepAnswersMs);
        }
      };
      await channel.start();
      await membership.start();
    },
    // Without the database every grant would fall back to this replica's share.
    status: () => membership.status(membership.storeOk() ? quota.mode() : 'fallback'),
    async stop() {
      if (archivedTimer) clearTimeout(archivedTimer);
      await membership.stop();
      await channel.stop();
      await quota.idle();
    },
  };
}

/**
 * The replicas' parts when this process shares a PostgreSQL store with others (DATABASE_URL),
 * else null. They coordinate on the store the root opened.
 */
export function replicasFor(
  config: Pick<AppConfig, 'replicas' | 'history' | 'data'>,
  parts: { store: HistoryStore | null; now: () => number; logger: FastifyBaseLogger },
): Replicas | null {
  const databaseUrl = config.history?.databaseUrl;
  if (!config.replicas || !databaseUrl || !parts.store?.pool) return null;
  const { data } = config;
  return composeReplicas({
    config: config.replicas,
    databaseUrl,
    store: parts.store,
    quotaReserve: data.quotaReserve,
    keepAnswersMs: data.freshness.staleIfErrorMs,
    lockWaitMs: data.upstreamTimeouts.requestMs + data.upstreamRetry.maxTotalMs,
    now: parts.now,
    logger: parts.logger,
  });
}
