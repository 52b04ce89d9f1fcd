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

/** The replicas' settings: REPLICA_NAME and the lease, and what they read from the data part. */
export interface ReplicasSettings extends ReplicasConfig {
  databaseUrl: Secret;
  quotaReserve: number | null;
  /** Upstream answers older than this are dropped from the shared table (stale-if-error). */
  keepAnswersMs: number;
  /** Longest wait for another replica's fetch of the same key. */
  lockWaitMs: number;
}

/** What the replicas are built on: the store the root opened, the clock and the logger. */
export interface ReplicasParts {
  store: HistoryStore;
  now: () => number;
  logger: FastifyBaseLogger;
}

/** What the replica does with news from the others, and on each heartbeat. */
interface Listeners {
  handle(message: ReplicaNews): void;
  resync(): void;
  onBeat(): Promise<void>;
}

/**
 * Several replicas on one PostgreSQL acting as one BFF (issue 9), wired in one place: the
 * shared budget ledger, the shared answer cache with cross-replica single-flight, the shared
 * per-client miss counts, the leader lease, and LISTEN/NOTIFY news between replicas.
 */
export function composeReplicas(settings: ReplicasSettings, deps: ReplicasParts): Replicas {
  const { now, logger } = deps;
  const pool = deps.store.pool;
  if (!pool) throw new Error('replicas need DATABASE_URL (a PostgreSQL server)');
  const db = deps.store.db;
  // The replicas below are handed plain values read here (issue 35: one entry per part).
  const { replicaName, leaseSeconds, databaseUrl, quotaReserve, lockWaitMs } = settings;
  // Filled in by start(), once the parts the news reaches exist.
  let listeners: Listeners = { handle: () => {}, resync: () => {}, onBeat: async () => {} };

  const membership = new Membership({
    db,
    name: replicaName,
    leaseSeconds,
    logger,
    onBeat: () => listeners.onBeat(),
  });
  const reportStore = (ok: boolean, error?: unknown): void => membership.reportStore(ok, error);
  // A miss's connection, lent by the answer cache to the ledger (one connection per miss).
  const connections = new MissConnections();
  const common = { pool, now, logger, reportStore, connections };
  const replicasSeen = () => membership.replicasSeen();
  const quota = new SharedQuota({ ...common, reserve: quotaReserve, replicasSeen });
  const storeOk = () => membership.storeOk();
  const answers = new SharedAnswers({ ...common, lockWaitMs, storeOk });
  const channel = new NewsChannel({
    url: databaseUrl,
    db,
    holder: membership.holder,
    logger,
    onMessage: (message) => listeners.handle(message),
    onResync: () => listeners.resync(),
  });
  const announce = announcements(channel);
  let sessions: SharedSessions | null = null;

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
    ...announce.senders,
    async start(parts) {
      listeners = listen(deps, settings.keepAnswersMs, {
        ...parts,
        quota,
        reportStore,
        sessions: () => sessions,
      });
      await channel.start();
      await membership.start();
    },
    // Without the database every grant would fall back to this replica's share.
    status: () => membership.status(membership.storeOk() ? quota.mode() : 'fallback'),
    async stop() {
      announce.stop();
      await membership.stop();
      await channel.stop();
      await quota.idle();
    },
  };
}

type Senders = Pick<
  Replicas,
  'announceArchived' | 'announceQueued' | 'announceBatchSeen' | 'announceStoreChanged'
>;

/** The news this replica sends; archived events are announced at most once a second. */
function announcements(channel: NewsChannel): { senders: Senders; stop(): void } {
  let archivedTimer: NodeJS.Timeout | null = null;
  const senders: Senders = {
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
  };
  return { senders, stop: () => archivedTimer && clearTimeout(archivedTimer) };
}

/** How the others' news reaches this replica's batch tracker, pipeline, store and sessions. */
function listen(
  deps: ReplicasParts,
  keepAnswersMs: number,
  parts: Parameters<Replicas['start']>[0] & {
    quota: SharedQuota;
    reportStore: (ok: boolean, error?: unknown) => void;
    sessions: () => SharedSessions | null;
  },
): Listeners {
  const { store, now, logger } = deps;
  const { batch, pipeline, archiver, quota, reportStore } = parts;
  let lastPrune = -Infinity;
  const observe = (asOfText: string): void => {
    if (batch.observe(asOfText, now())) {
      logger.info({ as_of: asOfText }, 'new upstream batch, as another replica saw it');
    }
    pipeline.seen();
  };
  return {
    handle(message) {
      if (message.kind === 'batch-seen') observe(message.as_of);
      else if (message.kind === 'store-changed') {
        store.changedElsewhere().catch((error: unknown) => reportStore(false, error));
      } else if (message.kind === 'session-revoked') parts.sessions()?.forget(message.id_hash);
      else pipeline.send();
    },
    // News sent while this replica was not listening is read from the store instead.
    resync() {
      // A sign-out missed meanwhile must not stay valid here: every session is asked again.
      parts.sessions()?.forgetAll();
      store.changedElsewhere().then(
        () => {
          const latest = store.lastCoverage.latest;
          if (latest) observe(latest);
          pipeline.send();
        },
        (error: unknown) => reportStore(false, error),
      );
    },
    async onBeat() {
      await quota.refresh();
      archiver.retryFailed();
      if (now() - lastPrune >= PRUNE_EVERY_MS) {
        lastPrune = now();
        await pruneShared(store.db, now(), now() - keepAnswersMs);
      }
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
  return composeReplicas(
    {
      ...config.replicas,
      databaseUrl,
      quotaReserve: data.quotaReserve,
      keepAnswersMs: data.freshness.staleIfErrorMs,
      lockWaitMs: data.upstreamTimeouts.requestMs + data.upstreamRetry.maxTotalMs,
    },
    { store: parts.store, now: parts.now, logger: parts.logger },
  );
}
