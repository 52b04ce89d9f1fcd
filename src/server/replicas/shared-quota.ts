import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import { readLedger, updateLedger } from '../store/quota-ledger.js';
import { isPoolBusy } from '../store/connection.js';
import {
  emptyQuotaState,
  QuotaGovernor,
  quotaStateSchema,
  type Grant,
  type Purpose,
  type QuotaLedger,
  type QuotaState,
} from '../upstream/quota.js';
import type { MissConnections } from './miss-connections.js';

const WINDOW_MS = 60 * 60_000;
/** A grant refused because every pooled connection was busy: worth asking again this soon. */
const BUSY_RETRY_MS = 5_000;

function parseState(raw: unknown): QuotaState {
  const parsed = quotaStateSchema.safeParse(raw);
  return parsed.success ? parsed.data : emptyQuotaState();
}

export interface SharedQuotaDeps {
  pool: pg.Pool;
  /** A miss's own connection, when the request is a miss's: booked there, not on a second one. */
  connections: MissConnections;
  reserve: number | null;
  now: () => number;
  logger: FastifyBaseLogger;
  /** Replicas alive as last seen: the PostgreSQL-down share divides the limit by it. */
  replicasSeen: () => number;
  reportStore: (ok: boolean, error?: unknown) => void;
}

/**
 * One budget for every replica: the quota governor's rules, applied to state kept in one row of
 * PostgreSQL and changed under `FOR UPDATE`, so a grant is atomic across replicas and survives
 * restarts. `mirror` holds the state as last seen (what /api/status and the metrics read).
 *
 * With PostgreSQL unreachable a replica cannot know what the others spend, so it spends at most
 * its share of what was left: (limit − sends still in the window as last seen) ÷ replicas last
 * seen, counting everything it sends from the start of the outage; N replicas doing the same stay
 * within the limit together. Its sends are added to the ledger when the database is back.
 */
export class SharedQuota implements QuotaLedger {
  readonly mirror: QuotaGovernor;
  /** Own sends since the ledger became unreachable; null while it is reachable. */
  #outage: { sent: number[] } | null = null;
  /** Sends not yet in the ledger (made during an outage). */
  #unrecorded: number[] = [];
  #writes: Promise<void> = Promise.resolve();

  constructor(private readonly deps: SharedQuotaDeps) {
    this.mirror = new QuotaGovernor(deps.reserve, deps.now);
  }

  mode(): 'shared' | 'fallback' {
    return this.#outage ? 'fallback' : 'shared';
  }

  async acquire(purpose: Purpose): Promise<Grant> {
    const book = (on: pg.Pool | pg.PoolClient) =>
      updateLedger(on, (raw) => {
        this.#adopt(raw);
        const permit = this.mirror.permit(purpose);
        const result: Grant = permit.ok ? { ok: true, seq: this.mirror.recordSend() } : permit;
        return { state: this.mirror.snapshot(), result };
      });
    try {
      const grant = await (this.deps.connections.onHeld(book) ?? book(this.deps.pool));
      this.#backOnline();
      return grant;
    } catch (error) {
      // The server is up (this replica's connections are all in use): the ledger still decides.
      if (isPoolBusy(error)) {
        return {
          ok: false,
          retryAfterMs: BUSY_RETRY_MS,
          reason: 'every database connection of this server is busy; try again in a moment',
        };
      }
      this.#wentOffline(error);
      return this.#acquireAlone(purpose);
    }
  }

  recordHeaders(limit: number | null, remaining: number | null, seq: number): void {
    if (seq < 0) {
      // Granted during an outage: the header's count cannot be tied to the shared sequence.
      if (limit !== null) this.mirror.recordHeaders(limit, null, 0);
      return;
    }
    this.#write(() => this.mirror.recordHeaders(limit, remaining, seq));
  }

  block(retryAfterMs: number): void {
    this.mirror.block(retryAfterMs);
    this.#write(() => this.mirror.block(retryAfterMs));
  }

  /** Reads the ledger into the mirror (each heartbeat), so status shows every replica's sends. */
  async refresh(): Promise<void> {
    if (this.#unrecorded.length > 0) {
      // Back from an outage: the sends made meanwhile go into the ledger first.
      await updateLedger(this.deps.pool, (raw) => {
        this.#adopt(raw);
        return { state: this.mirror.snapshot(), result: null };
      });
    } else {
      this.#adopt(await readLedger(this.deps.pool), false);
    }
    this.#backOnline();
  }

  /** Settles when the header and 429 writes queued so far are done (tests, close). */
  idle(): Promise<void> {
    return this.#writes;
  }

  /** Takes the ledger's state into the mirror, adding this replica's unrecorded sends. */
  #adopt(raw: unknown, merge = true): void {
    const state = parseState(raw);
    if (merge && this.#unrecorded.length > 0) {
      state.sent = [...state.sent, ...this.#unrecorded];
      state.seq = (state.seq ?? 0) + this.#unrecorded.length;
      state.sentSinceHeader += this.#unrecorded.length;
      this.#unrecorded = [];
    }
    // A limit this replica learnt while the ledger was away is kept.
    if (state.limit === null) state.limit = this.mirror.limit();
    this.mirror.restore(state);
  }

  #write(change: () => void): void {
    const book = async (on: pg.Pool | pg.PoolClient): Promise<void> => {
      try {
        await updateLedger(on, (raw) => {
          this.#adopt(raw);
          change();
          return { state: this.mirror.snapshot(), result: null };
        });
      } catch (error) {
        // The mirror keeps the change; the next grant or refresh reads the ledger again.
        if (!isPoolBusy(error)) this.#wentOffline(error);
      }
    };
    // On the miss's connection (it waits for this before letting go), else one at a time.
    if (this.deps.connections.onHeld(book)) return;
    this.#writes = this.#writes.then(() => book(this.deps.pool));
  }

  #acquireAlone(purpose: Purpose): Grant {
    const now = this.deps.now();
    const outage = (this.#outage ??= { sent: [] });
    const blocked = this.mirror.blockedUntil();
    if (blocked !== null) {
      return {
        ok: false,
        retryAfterMs: blocked - now,
        reason: 'the Risk API asked us to wait (its hourly limit for this key is reached)',
      };
    }
    const replicas = Math.max(1, this.deps.replicasSeen());
    const left = this.mirror.effectiveLimit() - this.mirror.usedLast60Min();
    const share = Math.floor(Math.max(0, left) / replicas);
    const reserve = Math.floor(this.mirror.effectiveReserve() / replicas);
    const spent = outage.sent.length;
    const allowed = purpose === 'interactive' ? spent < share : share - spent > reserve;
    if (!allowed) {
      return {
        ok: false,
        retryAfterMs: WINDOW_MS / 12,
        reason: `the shared budget ledger is unreachable, and this replica's share (${share} of the key's requests, for ${replicas} replicas) is spent`,
      };
    }
    outage.sent.push(now);
    this.#unrecorded.push(now);
    return { ok: true, seq: -1 };
  }

  #wentOffline(error: unknown): void {
    if (!this.#outage) {
      this.#outage = { sent: [] };
      this.deps.logger.warn(
        { replicas: this.deps.replicasSeen() },
        'budget ledger unreachable: spending at most this replica’s share until it is back',
      );
    }
    this.deps.reportStore(false, error);
  }

  #backOnline(): void {
    if (this.#outage && this.#unrecorded.length === 0) {
      this.#outage = null;
      this.deps.logger.info('budget ledger reachable again');
    }
    this.deps.reportStore(true);
  }
}
