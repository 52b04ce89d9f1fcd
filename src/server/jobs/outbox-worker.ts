import type { SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../store/connection.js';
import {
  claimNext,
  dueEndpoints,
  endpointKey,
  failingSince,
  nextDueAt,
  recordAttempt,
  selectWebhookTarget,
  takeOverClaims,
  type DeliveryRow,
  type Endpoint,
} from '../store/outbox.js';
import { pauseWebhook } from '../store/watchlists.js';
import type { DailyDigests } from '../services/alerts/daily-digest.js';
import { quietUntil } from '../services/alerts/local-time.js';
import {
  claimDigest,
  holdDelivery,
  nextDigestAt,
  recordDigestAttempt,
  selectSettingsByEmail,
  type DigestRow,
} from '../store/person-settings.js';
import { jobLoop, type JobLoop } from './job-loop.js';
import type { Mailer } from './mailer.js';
import type { Scheduler } from './scheduler.js';
import { sendWebhook, type SendOptions, type SendResult } from './webhook-sender.js';

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

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Retries stop this long after the message was created. */
export const RETRY_WINDOW_MS = 24 * HOUR;
/** An endpoint failing this long without one success is paused. */
export const PAUSE_AFTER_MS = 3 * 24 * HOUR;
const FIRST_DELAY_MS = 30_000;
const MAX_DELAY_MS = 2 * HOUR;
const LEASE_MS = 2 * MINUTE;
/**
 * Endpoints sent to at once, each strictly one delivery at a time: a receiver that hangs holds
 * one of them until its attempt gives up, and the others go on.
 */
export const ENDPOINTS_AT_ONCE = 8;
/**
 * One attempt ends by then whatever the channel does (webhooks give up sooner, at their own
 * 15 s), well inside the claim's lease, so a claim never runs out while its attempt still runs.
 */
export const ATTEMPT_LIMIT_MS = LEASE_MS / 2;
/** Even with nothing due, look again this often (another process may have queued something). */
const POLL_MS = 5 * MINUTE;

const NO_SMTP: SendResult = {
  status: null,
  retryAfterMs: null,
  durationMs: 0,
  error: 'SMTP is not configured',
  retryable: false,
};

const QUARTER_HOUR = 15 * MINUTE;
/** Time zones are offset by whole quarter hours: every local hour starts on one of these. */
const nextQuarterHour = (t: number): number => t - (t % QUARTER_HOUR) + QUARTER_HOUR;

/** Exponential back-off with full jitter, at least what the receiver's Retry-After asked. */
export function retryDelay(attempt: number, retryAfterMs: number | null, random: number): number {
  const ceiling = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (attempt - 1));
  const jittered = ceiling / 2 + (random * ceiling) / 2;
  return Math.max(jittered, Math.min(retryAfterMs ?? 0, RETRY_WINDOW_MS));
}

/**
 * Sends what the outbox holds: webhooks and e-mail digests. Deliveries live in the store, so a
 * restart loses nothing and sends again with the same message id; claims are leases, so two
 * processes never send one delivery at the same moment. Endpoints are independent: each has its
 * own lane, so a slow receiver delays only its own deliveries.
 */
export class OutboxWorker {
  /** One lane per endpoint in flight: it sends that endpoint's due deliveries one by one. */
  readonly #lanes = new Map<string, { endpoint: Endpoint; done: Promise<void> }>();
  readonly #loop: JobLoop;
  /** The digests' own lane: one digest at a time, beside the endpoints' lanes. */
  #digestLane: Promise<void> | null = null;
  #stopped = false;
  /** Replicas: the claims of earlier terms are taken over before this term's first claim. */
  #tookOver = false;

  constructor(private readonly deps: OutboxDeps) {
    this.#loop = jobLoop(deps, {
      name: 'outbox run',
      run: async () => {
        try {
          await this.#takeOver();
          await this.#dispatch();
        } catch (error) {
          this.deps.logger.error({ err: error }, 'outbox run failed');
        }
        try {
          await this.#dispatchDigests();
        } catch (error) {
          this.deps.logger.error({ err: error }, 'daily digests failed');
        }
        return this.#nextAt();
      },
    });
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
      const lanes = [...this.#lanes.values()].map((lane) => lane.done);
      if (this.#digestLane) lanes.push(this.#digestLane);
      if (lanes.length === 0) return;
      await Promise.all(lanes);
    }
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#loop.stop();
    await this.idle();
  }

  get #busy(): Endpoint[] {
    return [...this.#lanes.values()].map((lane) => lane.endpoint);
  }

  /** Once per term (a failure tries again at the next run, before anything is claimed). */
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

  async #dispatch(): Promise<void> {
    if (this.#stopped) return;
    const free = (this.deps.endpointsAtOnce ?? ENDPOINTS_AT_ONCE) - this.#lanes.size;
    if (free <= 0) return;
    const due = await dueEndpoints(this.deps.db, new Date(this.deps.now()), free, this.#busy);
    for (const endpoint of due) this.#startLane(endpoint);
  }

  #startLane(endpoint: Endpoint): void {
    const key = endpointKey(endpoint);
    const done = this.#sendAll(endpoint).then(
      (sent) => {
        this.#lanes.delete(key);
        // A lane that claimed nothing (the fence refused it, another replica took the work)
        // does not look again at once: the same endpoint would be due again and the worker
        // would spin on the store. The timer comes back (at most POLL_MS).
        if (sent > 0) this.kick();
      },
      (error: unknown) => {
        // Not kicked again at once: a store that fails would fail again; the timer comes back.
        this.#lanes.delete(key);
        this.deps.logger.error({ err: error }, 'outbox delivery failed');
      },
    );
    this.#lanes.set(key, { endpoint, done });
  }

  /** One endpoint's due deliveries, strictly one at a time, oldest first; how many it sent. */
  async #sendAll(endpoint: Endpoint): Promise<number> {
    let sent = 0;
    while (!this.#stopped) {
      const delivery = await claimNext(
        this.deps.db,
        endpoint,
        new Date(this.deps.now()),
        LEASE_MS,
        this.deps.fence ?? null,
      );
      if (!delivery) break;
      await this.#deliver(delivery);
      sent += 1;
    }
    return sent;
  }

  /** Queues the digests due now and starts their lane (one digest at a time). */
  async #dispatchDigests(): Promise<void> {
    const { digests, mailer } = this.deps;
    if (this.#stopped || !digests || !mailer || this.#digestLane) return;
    await digests.queueDue(this.deps.now());
    this.#digestLane = this.#sendDigests().then(
      (sent) => {
        this.#digestLane = null;
        if (sent > 0) this.kick();
      },
      (error: unknown) => {
        this.#digestLane = null;
        this.deps.logger.error({ err: error }, 'daily digest delivery failed');
      },
    );
  }

  async #sendDigests(): Promise<number> {
    let sent = 0;
    while (!this.#stopped) {
      const now = new Date(this.deps.now());
      const digest = await claimDigest(this.deps.db, now, LEASE_MS, this.deps.fence ?? null);
      if (!digest) break;
      await this.#deliverDigest(digest, now);
      sent += 1;
    }
    return sent;
  }

  async #deliverDigest(digest: DigestRow, at: Date): Promise<void> {
    const result = await this.#attemptWith(() =>
      this.deps.mailer ? this.deps.mailer.send(digest.body) : Promise.resolve(NO_SMTP),
    );
    const ok = result.error === null;
    let state: DigestRow['state'] = ok ? 'delivered' : 'failed';
    let nextAttemptAt: Date | null = null;
    if (!ok && result.retryable) {
      const delay = retryDelay(
        digest.attempts + 1,
        result.retryAfterMs,
        (this.deps.random ?? Math.random)(),
      );
      const next = at.getTime() + delay;
      if (next - digest.createdAt.getTime() <= RETRY_WINDOW_MS) {
        state = 'pending';
        nextAttemptAt = new Date(next);
      }
    }
    await recordDigestAttempt(this.deps.db, digest, { state, error: result.error, nextAttemptAt });
    this.deps.logger.info(
      { delivery: digest.messageId, channel: 'digest', attempt: digest.attempts + 1, state },
      ok ? 'daily digest delivered' : 'daily digest delivery failed',
    );
  }

  /** When to look again: the next delivery due, and at least every POLL_MS. */
  async #nextAt(): Promise<number | null> {
    if (this.#stopped) return null;
    let at = this.deps.now() + POLL_MS;
    if (this.deps.digests && this.deps.mailer) {
      // Digests fall due on the hour (in every time zone, give or take its minutes).
      at = Math.min(at, nextQuarterHour(this.deps.now()));
      const due = await nextDigestAt(this.deps.db).catch(() => null);
      if (due) at = Math.min(at, Math.max(due.getTime(), this.deps.now()));
    }
    try {
      // With every lane taken, the next lane to finish looks again.
      if (this.#lanes.size < (this.deps.endpointsAtOnce ?? ENDPOINTS_AT_ONCE)) {
        const due = await nextDueAt(this.deps.db, this.#busy);
        if (due) at = Math.min(at, due.getTime());
      }
    } catch (error) {
      this.deps.logger.error({ err: error }, 'outbox run failed');
    }
    return at;
  }

  /** One attempt, given up after the attempt limit so that it always ends inside its claim. */
  #attempt(delivery: DeliveryRow): Promise<SendResult> {
    return this.#attemptWith(() => this.#send(delivery));
  }

  async #attemptWith(send: () => Promise<SendResult>): Promise<SendResult> {
    const limitMs = this.deps.attemptLimitMs ?? ATTEMPT_LIMIT_MS;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<SendResult>((resolve) => {
      timer = setTimeout(
        () =>
          resolve({
            status: null,
            retryAfterMs: null,
            durationMs: limitMs,
            error: `no complete answer within ${limitMs} ms`,
            retryable: true,
          }),
        limitMs,
      );
    });
    try {
      return await Promise.race([send(), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  async #send(delivery: DeliveryRow): Promise<SendResult> {
    if (delivery.channel === 'webhook') {
      const target = await selectWebhookTarget(this.deps.db, delivery.watchlistId);
      return target
        ? sendWebhook(target, delivery.messageId, delivery.body, this.deps.send)
        : {
            status: null,
            retryAfterMs: null,
            durationMs: 0,
            error: 'the watchlist has no webhook any more',
            retryable: false,
          };
    }
    return this.deps.mailer ? this.deps.mailer.send(delivery.body) : NO_SMTP;
  }

  /**
   * A person's settings for an e-mail to their address: e-mail off refuses it (never sent);
   * in their quiet hours a non-critical one is held until they end (no attempt counted).
   * Returns true when the delivery was settled here and must not be sent now.
   */
  async #personal(delivery: DeliveryRow, at: Date): Promise<boolean> {
    const mail = JSON.parse(delivery.body) as { to?: unknown; critical?: unknown };
    if (typeof mail.to !== 'string') return false;
    const person = await selectSettingsByEmail(this.deps.db, mail.to);
    if (person === null) return false;
    if (!person.emailEnabled) {
      await recordAttempt(this.deps.db, delivery, {
        at,
        status: null,
        durationMs: 0,
        error: 'not sent: the recipient turned e-mail off in their settings',
        state: 'failed',
        nextAttemptAt: null,
      });
      return true;
    }
    if (mail.critical === true || person.quietStart === null || person.quietEnd === null) {
      return false;
    }
    const until = quietUntil(at.getTime(), person.timeZone, person.quietStart, person.quietEnd);
    if (until === null) return false;
    // Held, not attempted: the claim is released and the delivery falls due when quiet ends.
    await holdDelivery(this.deps.db, delivery.id, new Date(until));
    this.deps.logger.info(
      { delivery: delivery.messageId, until: new Date(until).toISOString() },
      'e-mail held for the recipient’s quiet hours',
    );
    return true;
  }

  async #deliver(delivery: DeliveryRow): Promise<void> {
    const { now, logger } = this.deps;
    const at = new Date(now());
    if (delivery.channel === 'email' && (await this.#personal(delivery, at))) return;
    const result = await this.#attempt(delivery);
    const attempt = delivery.attempts + 1;
    const ok = result.error === null;
    let state: DeliveryRow['state'] = ok ? 'delivered' : 'failed';
    let nextAttemptAt: Date | null = null;
    if (!ok && result.retryable) {
      const delay = retryDelay(attempt, result.retryAfterMs, (this.deps.random ?? Math.random)());
      const next = at.getTime() + delay;
      if (next - delivery.createdAt.getTime() <= RETRY_WINDOW_MS) {
        state = 'pending';
        nextAttemptAt = new Date(next);
      }
    }
    await recordAttempt(this.deps.db, delivery, {
      at,
      status: result.status,
      durationMs: result.durationMs,
      error: result.error,
      state,
      nextAttemptAt,
    });
    // Log the outcome without the body or the URL's query (either may hold a receiver's token).
    logger.info(
      {
        delivery: delivery.messageId,
        channel: delivery.channel,
        attempt,
        status: result.status,
        state,
      },
      ok ? 'alert delivered' : 'alert delivery failed',
    );
    if (!ok && delivery.channel === 'webhook') await this.#maybePause(delivery.watchlistId, at);
  }

  async #maybePause(watchlistId: number, at: Date): Promise<void> {
    const since = await failingSince(this.deps.db, watchlistId);
    if (since && at.getTime() - since.getTime() >= PAUSE_AFTER_MS) {
      await pauseWebhook(
        this.deps.db,
        watchlistId,
        at,
        `Paused: every delivery since ${since.toISOString()} failed. Save the watchlist to resume.`,
      );
      this.deps.logger.warn({ watchlist: watchlistId }, 'webhook paused after 3 days of failures');
    }
  }
}
