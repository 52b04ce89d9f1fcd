import type { FastifyBaseLogger } from 'fastify';
import type { Scheduler } from './scheduler.js';

/*
 * The one primitive for everything that runs in the background: the batch watch and the outbox
 * (which wake on their own), the two evaluators' passes and the event archive's writes (which
 * run when asked). What it guarantees, each pinned by a case of test/server/job-loop.test.ts:
 *
 * - One run at a time: each run is chained behind the one before (`#running`), never beside it.
 *   Pinned by "never runs twice at once: kicks during a run make exactly one more run, after it".
 * - Asks coalesce: every kick or request made before the queued run starts joins it (`#queued`),
 *   and that run starts only after the one in progress ended, so it sees what they asked about.
 *   Pinned by "requests made while a run is queued share that run and its result".
 * - Stop waits: stop() settles when the run in progress has ended and starts none after it,
 *   not even one queued before stop(). Pinned by "stop while a run is in progress waits for that
 *   run, and starts none after" and "a run queued before stop() never starts".
 * - Back-off (jobs that wake on their own): after a failed run the next starts after `firstMs`,
 *   doubling up to `maxMs`; a success starts over. Jobs run only when asked are not retried by
 *   the loop: the failure rejects its askers and the next ask runs again.
 *   Pinned by "backs off after failures, doubling up to its ceiling, and starts over after a
 *   success" and "a failed run rejects its askers, is logged in the job's words, and is not
 *   retried".
 * - Leader only (when `isLeader` is given): a run due while this process does not lead is
 *   skipped, not run and not rescheduled (the term's stop follows).
 *   Pinned by "leader-only: skips runs while this process does not lead".
 */

interface JobBasics<T> {
  /** For the log line of a failed run. */
  name: string;
  /**
   * One run. A job that wakes on its own (with a `scheduler`) resolves to when the next should
   * start (epoch ms), or null: only when kicked. Any other job resolves to what its askers get.
   */
  run: () => Promise<T>;
  logger: FastifyBaseLogger;
  /** Leader-only jobs: a run due while this says false is skipped (not run, not rescheduled). */
  isLeader?: () => boolean;
  /**
   * The log line of a failed run, instead of `<name> failed; trying again soon` (a job without
   * a schedule: `<name> failed`).
   */
  logFailure?: (error: unknown, failures: number) => void;
}

/** A job that wakes on its own: the batch watch, the outbox. */
interface OwnSchedule {
  scheduler: Scheduler;
  now: () => number;
  /**
   * After a failed run the next starts after `firstMs`, doubling with each further failure up
   * to `maxMs`; a run that succeeds resets it.
   */
  backoff?: { firstMs: number; maxMs: number };
  /** When to run again after a failure (the job's own rule); overrides `backoff`. */
  retryAt?: (failures: number) => number;
}

/** A job that runs only when asked: the evaluators' passes, the event archive's writes. */
interface WhenAsked {
  scheduler?: undefined;
  now?: undefined;
  backoff?: undefined;
  retryAt?: undefined;
}

export type JobLoopOptions<T = number | null> = JobBasics<T> & (OwnSchedule | WhenAsked);

const DEFAULT_BACKOFF = { firstMs: 1_000, maxMs: 5 * 60_000 };

/** The result of one run, for everyone who asked for it. */
class Outcome<T> {
  readonly promise: Promise<T | null>;
  settle!: (value: T | null) => void;
  fail!: (error: unknown) => void;

  constructor() {
    this.promise = new Promise<T | null>((resolve, reject) => {
      this.settle = resolve;
      this.fail = reject;
    });
    // A failure nobody asked to hear (kick) is the loop's to log, not an unhandled rejection.
    this.promise.catch(() => undefined);
  }
}

/**
 * Runs one job: one run at a time, on its schedule or when asked, backing off after failures,
 * skipping runs while this process does not lead, and stopping by waiting for the run in
 * progress.
 */
export class JobLoop<T = number | null> {
  /** The run in progress and the one queued behind it, in order: never two runs at once. */
  #running: Promise<void> = Promise.resolve();
  /** The queued run that has not started: another ask joins it and adds nothing. */
  #queued: Outcome<T> | null = null;
  #cancel: (() => void) | null = null;
  #stopped = false;
  #failures = 0;

  constructor(private readonly options: JobLoopOptions<T>) {}

  /** Runs at once, then on the schedule each run returns. */
  start(): void {
    this.kick();
  }

  /** Runs as soon as the run in progress (if any) ends, instead of at the scheduled time. */
  kick(): void {
    void this.#ask();
  }

  /**
   * Asks for a run as kick() does and resolves to its result: null when it did not run (the
   * loop stopped, or this process does not lead); rejects when it failed.
   */
  request(): Promise<T | null> {
    return this.#ask();
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

  #ask(): Promise<T | null> {
    if (this.#stopped) return Promise.resolve(null);
    if (this.#queued) return this.#queued.promise;
    // The run coming reschedules: the wake-up it replaces must not queue another.
    this.#cancel?.();
    this.#cancel = null;
    const outcome = new Outcome<T>();
    this.#queued = outcome;
    this.#running = this.#running.then(() => this.#runOnce(outcome));
    return outcome.promise;
  }

  async #runOnce(outcome: Outcome<T>): Promise<void> {
    this.#queued = null;
    // Stopped, or leadership was lost (the term's stop follows): nothing runs meanwhile.
    if (this.#stopped || (this.options.isLeader && !this.options.isLeader())) {
      outcome.settle(null);
      return;
    }
    let result: T;
    try {
      result = await this.options.run();
      this.#failures = 0;
    } catch (error) {
      this.#failures += 1;
      this.#logFailure(error);
      outcome.fail(error);
      if (this.options.scheduler) this.#schedule(this.#retryAt(this.options));
      return;
    }
    outcome.settle(result);
    // A job with its own schedule said when it runs next (its result is that time).
    if (this.options.scheduler) this.#schedule(result as number | null);
  }

  #logFailure(error: unknown): void {
    if (this.options.logFailure) this.options.logFailure(error, this.#failures);
    else {
      // Only a job with its own schedule tries again by itself.
      const then = this.options.scheduler ? '; trying again soon' : '';
      this.options.logger.error(
        { err: error, failures: this.#failures },
        `${this.options.name} failed${then}`,
      );
    }
  }

  #retryAt(schedule: OwnSchedule): number {
    if (schedule.retryAt) return schedule.retryAt(this.#failures);
    const { firstMs, maxMs } = schedule.backoff ?? DEFAULT_BACKOFF;
    return schedule.now() + Math.min(maxMs, firstMs * 2 ** (this.#failures - 1));
  }

  #schedule(at: number | null): void {
    this.#cancel?.();
    this.#cancel = null;
    if (this.#stopped || at === null || !this.options.scheduler) return;
    this.#cancel = this.options.scheduler.at(at, () => this.kick());
  }
}

/** What a job's loop takes from the job's own dependencies (they hold these under these names). */
export interface LoopSurroundings {
  scheduler: Scheduler;
  now: () => number;
  logger: FastifyBaseLogger;
  isLeader?: () => boolean;
}

/** A loop that wakes on its own, on the scheduler, clock, logger and leadership the job was given. */
export function jobLoop(
  surroundings: LoopSurroundings,
  job: Pick<JobBasics<number | null>, 'name' | 'run' | 'logFailure'> &
    Pick<OwnSchedule, 'backoff' | 'retryAt'>,
): JobLoop {
  const { scheduler, now, logger, isLeader } = surroundings;
  return new JobLoop({ ...job, scheduler, now, logger, isLeader });
}
