import type { FastifyBaseLogger } from 'fastify';
import type { Scheduler } from './scheduler.js';

export interface JobLoopOptions {
  /** For the log line of a failed run. */
  name: string;
  /** One run; resolves to when the next should start (epoch ms), or null: only when kicked. */
  run: () => Promise<number | null>;
  scheduler: Scheduler;
  now: () => number;
  logger: FastifyBaseLogger;
  /**
   * After a failed run the next starts after `firstMs`, doubling with each further failure up
   * to `maxMs`; a run that succeeds resets it.
   */
  backoff?: { firstMs: number; maxMs: number };
  /** When to run again after a failure (the job's own rule); overrides `backoff`. */
  retryAt?: (failures: number) => number;
  /** Leader-only jobs: a run due while this says false is skipped (not run, not rescheduled). */
  isLeader?: () => boolean;
}

const DEFAULT_BACKOFF = { firstMs: 1_000, maxMs: 5 * 60_000 };

/**
 * The one loop every background job runs on (the batch watch, the outbox): runs one at a time,
 * wakes on its schedule or when kicked, backs off after failures, skips runs while this process
 * does not lead, and stops by waiting for the run in progress.
 */
export class JobLoop {
  /** The run in progress and the one queued behind it, in order: never two runs at once. */
  #running: Promise<void> = Promise.resolve();
  /** A run is queued and has not started: another kick adds nothing. */
  #queued = false;
  #cancel: (() => void) | null = null;
  #stopped = false;
  #failures = 0;

  constructor(private readonly options: JobLoopOptions) {}

  /** Runs at once, then on the schedule each run returns. */
  start(): void {
    this.kick();
  }

  /** Runs as soon as the run in progress (if any) ends, instead of at the scheduled time. */
  kick(): void {
    if (this.#stopped || this.#queued) return;
    // The run coming reschedules: the wake-up it replaces must not queue another.
    this.#cancel?.();
    this.#cancel = null;
    this.#queued = true;
    this.#running = this.#running.then(() => this.#runOnce());
  }

  /** No further runs; settles when the run in progress has ended. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#cancel?.();
    await this.idle();
  }

  /** Settles when no run is in progress or queued. */
  async idle(): Promise<void> {
    let current: Promise<void>;
    do {
      current = this.#running;
      await current;
    } while (current !== this.#running);
  }

  /** Consecutive failed runs (0 after a success). */
  get failures(): number {
    return this.#failures;
  }

  async #runOnce(): Promise<void> {
    this.#queued = false;
    if (this.#stopped) return;
    // Leadership was lost: the term's stop follows; nothing runs meanwhile.
    if (this.options.isLeader && !this.options.isLeader()) return;
    let next: number | null;
    try {
      next = await this.options.run();
      this.#failures = 0;
    } catch (error) {
      this.#failures += 1;
      this.options.logger.error(
        { err: error, failures: this.#failures },
        `${this.options.name} failed; trying again soon`,
      );
      next = this.#retryAt();
    }
    this.#schedule(next);
  }

  #retryAt(): number {
    if (this.options.retryAt) return this.options.retryAt(this.#failures);
    const { firstMs, maxMs } = this.options.backoff ?? DEFAULT_BACKOFF;
    return this.options.now() + Math.min(maxMs, firstMs * 2 ** (this.#failures - 1));
  }

  #schedule(at: number | null): void {
    this.#cancel?.();
    this.#cancel = null;
    if (this.#stopped || at === null) return;
    this.#cancel = this.options.scheduler.at(at, () => this.kick());
  }
}

/** What a job's loop takes from the job's own dependencies (they hold these under these names). */
export type LoopSurroundings = Pick<JobLoopOptions, 'scheduler' | 'now' | 'logger' | 'isLeader'>;

/** A loop for `job` on the scheduler, clock, logger and leadership the job was given. */
export function jobLoop(
  surroundings: LoopSurroundings,
  job: Omit<JobLoopOptions, keyof LoopSurroundings>,
): JobLoop {
  const { scheduler, now, logger, isLeader } = surroundings;
  return new JobLoop({ ...job, scheduler, now, logger, isLeader });
}
