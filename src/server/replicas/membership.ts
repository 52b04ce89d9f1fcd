import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { ClusterStatus } from '../../shared/bff-api.js';
import { isPoolBusy, type Database } from '../store/connection.js';
import {
  claimLease,
  countReplicas,
  heartbeat,
  holdsLease,
  leaveReplicas,
} from '../store/leadership.js';
import type { Leadership, StopJob } from './leadership.js';

/** Replicas with a heartbeat this recent count as alive (the PostgreSQL-down share uses it). */
const ALIVE_SECONDS = 60;

export interface MembershipOptions {
  db: Database;
  name: string;
  leaseSeconds: number;
  logger: FastifyBaseLogger;
  /** Runs after each heartbeat that reached the database (housekeeping, ledger refresh). */
  onBeat?: () => Promise<void>;
}

/**
 * This replica's place among the others: a heartbeat every third of the lease, the leader lease
 * taken or renewed on each beat, and the jobs of `whileLeading` started and stopped with it.
 * A dead leader's lease runs out and the next beat of another replica takes it: within about
 * 1.33 × LEADER_LEASE_SECONDS. Time here is the monotonic clock and the database's own: never
 * the wall clock of this process.
 */
export class Membership implements Leadership {
  /** Unique per process: a restarted replica of the same name is a new holder. */
  readonly holder: string;
  readonly #jobs: Array<(fence: SQL | null) => StopJob> = [];
  #stops: StopJob[] = [];
  #fence = 0;
  #leading = false;
  #leaderName: string | null = null;
  #replicasSeen = 1;
  #storeOk = true;
  #storeError: string | null = null;
  /** performance.now() of the last renewal that reached the database. */
  #renewedAt = -Infinity;
  #timer: NodeJS.Timeout | null = null;
  #beat: Promise<void> = Promise.resolve();
  #closed = false;
  #stopped: Promise<void> | null = null;

  constructor(private readonly options: MembershipOptions) {
    this.holder = `${options.name}#${randomUUID().slice(0, 8)}`;
  }

  start(): Promise<void> {
    const every = Math.max(1000, (this.options.leaseSeconds * 1000) / 3);
    this.#timer = setInterval(() => void this.beat(), every);
    this.#timer.unref();
    return this.beat();
  }

  /** One heartbeat (also called by tests to move on without waiting). */
  beat(): Promise<void> {
    this.#beat = this.#beat.then(() => this.#beatOnce());
    return this.#beat;
  }

  whileLeading(start: (fence: SQL | null) => StopJob): void {
    this.#jobs.push(start);
    if (this.#leading) this.#stops.push(start(holdsLease(this.holder, this.#fence)));
  }

  isLeader(): boolean {
    return this.#leading;
  }

  /** Replicas alive as last seen (at least this one). */
  replicasSeen(): number {
    return this.#replicasSeen;
  }

  storeOk(): boolean {
    return this.#storeOk;
  }

  /** Any replica part that found PostgreSQL unreachable (or back) says so here. */
  reportStore(ok: boolean, error?: unknown): void {
    // Every pooled connection in use says nothing of the server: no outage, no share spent.
    if (!ok && isPoolBusy(error)) return;
    if (ok === this.#storeOk) return;
    this.#storeOk = ok;
    this.#storeError = ok ? null : describe(error);
    if (ok) this.options.logger.info('PostgreSQL reachable again');
    else this.options.logger.warn({ reason: this.#storeError }, 'PostgreSQL unreachable');
  }

  status(ledger: 'shared' | 'fallback'): ClusterStatus {
    return {
      replica: this.options.name,
      role: this.#leading ? 'leader' : 'follower',
      leader: this.#leading ? this.options.name : this.#leaderName,
      store: this.#storeOk ? 'ok' : 'unreachable',
      store_error: this.#storeError,
      ledger,
      replicas_seen: this.#replicasSeen,
    };
  }

  /** Stops leading (handing the lease over at once) and leaves the cluster. */
  /** Once: the app's close stops leadership, and the cluster's close asks again. */
  stop(): Promise<void> {
    this.#stopped ??= (async () => {
      this.#closed = true;
      if (this.#timer) clearInterval(this.#timer);
      await this.#beat;
      await this.#follow();
      await leaveReplicas(this.options.db, this.holder).catch(() => undefined);
    })();
    return this.#stopped;
  }

  async #beatOnce(): Promise<void> {
    if (this.#closed) return;
    const { db, name, leaseSeconds } = this.options;
    try {
      await heartbeat(db, this.holder, name);
      const lease = await claimLease(db, this.holder, leaseSeconds);
      this.#replicasSeen = Math.max(1, await countReplicas(db, ALIVE_SECONDS));
      this.#renewedAt = performance.now();
      this.#leaderName = lease.name;
      this.reportStore(true);
      if (lease.mine && (!this.#leading || lease.fence !== this.#fence)) {
        await this.#follow();
        this.#lead(lease.fence);
      } else if (!lease.mine && this.#leading) {
        this.options.logger.warn({ leader: lease.name }, 'leader lease lost to another replica');
        await this.#follow();
      }
      await this.options.onBeat?.();
    } catch (error) {
      this.reportStore(false, error);
      // The lease cannot be renewed without the database: stop leading well before it runs out,
      // so no two replicas ever lead at once.
      const since = performance.now() - this.#renewedAt;
      if (this.#leading && since > leaseSeconds * 1000 * 0.6) {
        this.options.logger.warn('stepping down: the leader lease cannot be renewed');
        // Who leads next is not known until the database is back.
        this.#leaderName = null;
        await this.#follow();
      }
    }
  }

  #lead(fence: number): void {
    if (this.#closed) return;
    this.#leading = true;
    this.#fence = fence;
    this.options.logger.info({ replica: this.options.name, fence }, 'this replica now leads');
    const condition = holdsLease(this.holder, fence);
    this.#stops = this.#jobs.map((start) => start(condition));
  }

  async #follow(): Promise<void> {
    if (!this.#leading) return;
    this.#leading = false;
    await Promise.all(this.#stops.splice(0).map((stop) => stop()));
  }
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // Driver messages name hosts and users at most; never the password. Keep one short line.
  return message.split('\n')[0]?.slice(0, 200) ?? 'unknown error';
}
