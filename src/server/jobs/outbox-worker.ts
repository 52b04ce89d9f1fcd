import type { SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { DailyDigests } from '../services/alerts/daily-digest.js';
import type { Database } from '../store/connection.js';
import { listEmails, PeoplesDigests } from './email-outbox.js';
import { takeOverClaims } from '../store/outbox.js';
import { jobLoop, type JobLoop } from './job-loop.js';
import type { Mailer } from './mailer.js';
import { EndpointLanes } from './outbox-lanes.js';
import type { Scheduler } from './scheduler.js';
import { listWebhooks } from './webhook-outbox.js';
import type { SendOptions } from './webhook-sender.js';

/*
 * The outbox job: the pipeline's "sent" step (jobs/pipeline.ts), one worker per term of
 * leadership. Who sends what: webhook-outbox.ts (a list's webhook), email-outbox.ts (a list's
 * e-mail with its recipient's settings, people's daily digests), on the lanes and fenced claims
 * of outbox-lanes.ts, which keep the delivery guarantees. What this file guarantees, each pinned
 * by a test in test/server:
 *
 * - One run at a time, leader only, stop waits: the worker runs on a job loop (job-loop.ts) and
 *   stop() also waits for every lane under way, then sends nothing. Pinned by
 *   outbox-lanes.mutation.test.ts "stop() waits for the delivery under way, then sends nothing
 *   more".
 * - A failing step stops no other: the lists' lanes, the people's digests and the look for the
 *   next wake-up each log their own failure, and the run still ends and wakes again. Pinned by
 *   outbox-failures.mutation.test.ts "a store that cannot be read: each step says so in its own
 *   words, and the run still ends".
 * - Never asleep for long: the worker wakes for the next delivery due outside its lanes, and at
 *   least every POLL_MS (another process may have queued something). Pinned by
 *   outbox-lanes.mutation.test.ts "an endpoint already in a lane does not bring the next wake-up
 *   forward".
 */

export interface OutboxDeps {
  db: Database;
  now: () => number;
  logger: FastifyBaseLogger;
  send: SendOptions;
  mailer: Mailer | null;
  scheduler: Scheduler;
  /** Randomness for the jitter (tests pass a fixed one). */
  random?: () => number;
  /** Replicas: the leader lease's condition, so only the current leader claims deliveries. */
  fence?: SQL | null;
  /** Runs only while this process leads (the loop skips them otherwise). */
  isLeader?: () => boolean;
  /** How many endpoints are sent to at once (tests pass fewer). */
  endpointsAtOnce?: number;
  /** How long one attempt may take before it counts as failed (tests pass less). */
  attemptLimitMs?: number;
  /** People's daily digests (issue 21), built and sent by this worker when SMTP is set. */
  digests?: DailyDigests | null;
}

/** Even with nothing due, look again this often (another process may have queued something). */
const POLL_MS = 5 * 60_000;

/**
 * Sends what the outbox holds: webhooks and e-mail digests. Deliveries live in the store, so a
 * restart loses nothing and sends again with the same message id; claims are leases, so two
 * processes never send one delivery at the same moment. Endpoints are independent: each has its
 * own lane, so a slow receiver delays only its own deliveries.
 */
export class OutboxWorker {
  readonly #loop: JobLoop;
  readonly #lanes: EndpointLanes;
  readonly #digests: PeoplesDigests;
  #stopped = false;
  /** Replicas: the claims of earlier terms are taken over before this term's first claim. */
  #tookOver = false;

  constructor(private readonly deps: OutboxDeps) {
    const { db, logger, mailer } = deps;
    const fence = deps.fence ?? null;
    const random = deps.random ?? Math.random;
    const onSent = (): void => this.kick();
    this.#lanes = new EndpointLanes({
      db,
      now: deps.now,
      logger,
      channels: { webhook: listWebhooks(deps), email: listEmails(deps) },
      random,
      fence,
      endpointsAtOnce: deps.endpointsAtOnce,
      attemptLimitMs: deps.attemptLimitMs,
      onSent,
    });
    this.#digests = new PeoplesDigests({
      db,
      now: deps.now,
      logger,
      mailer,
      digests: deps.digests ?? null,
      fence,
      random,
      attemptLimitMs: deps.attemptLimitMs,
      onSent,
    });
    this.#loop = jobLoop(deps, { name: 'outbox run', run: () => this.#run() });
  }

  start(): void {
    this.#loop.start();
  }

  /** Starts lanes for endpoints with something due, then sleeps until the next falls due. */
  kick(): void {
    this.#loop.kick();
  }

  /** Settles when nothing is being sent or about to be. */
  async idle(): Promise<void> {
    for (;;) {
      await this.#loop.idle();
      const lanes = [...this.#lanes.inFlight(), ...this.#digests.inFlight()];
      if (lanes.length === 0) return;
      await Promise.all(lanes);
    }
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#lanes.stop();
    this.#digests.stop();
    await this.#loop.stop();
    await this.idle();
  }

  /**
   * Once per term, before this term's first claim: the deliveries earlier leaders claimed and
   * never finished are released (only by the lease's holder), so a leader that died mid-send
   * does not hold its endpoints until its claims run out; they go out again under the same
   * message id. A failure tries again at the next run. Pinned by outbox-takeover.test.ts.
   */
  async #takeOver(): Promise<void> {
    const { fence } = this.deps;
    if (this.#tookOver || !fence) return;
    const taken = await takeOverClaims(this.deps.db, new Date(this.deps.now()), fence);
    this.#tookOver = true;
    if (taken > 0) {
      this.deps.logger.info(
        { deliveries: taken },
        'deliveries claimed by an earlier leader taken over, to be sent again now',
      );
    }
  }

  /** One run: the lists' lanes, then the people's digests; resolves to when to look again. */
  async #run(): Promise<number | null> {
    try {
      await this.#takeOver();
      await this.#lanes.dispatch();
    } catch (error) {
      this.deps.logger.error({ err: error }, 'outbox run failed');
    }
    try {
      await this.#digests.dispatch();
    } catch (error) {
      this.deps.logger.error({ err: error }, 'daily digests failed');
    }
    return this.#nextAt();
  }

  /** When to look again: the next delivery due, and at least every POLL_MS. */
  async #nextAt(): Promise<number | null> {
    if (this.#stopped) return null;
    let at = this.deps.now() + POLL_MS;
    // Digests fall due on the hour (in every time zone, give or take its minutes).
    const digestsAt = await this.#digests.wakeAt();
    if (digestsAt !== null) at = Math.min(at, digestsAt);
    try {
      const due = await this.#lanes.nextDueAt();
      if (due) at = Math.min(at, due.getTime());
    } catch (error) {
      this.deps.logger.error({ err: error }, 'outbox run failed');
    }
    return at;
  }
}
