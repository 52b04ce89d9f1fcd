import type { SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../store/connection.js';
import {
  claimNext,
  dueEndpoints,
  endpointKey,
  nextDueAt,
  recordAttempt,
  type DeliveryRow,
  type Endpoint,
} from '../store/outbox.js';
import type { SendResult } from './webhook-sender.js';

/*
 * The outbox's core, shared by everything it sends (webhook-outbox.ts, email-outbox.ts): one
 * lane per endpoint, claims fenced by the leader lease, and the rules of one attempt. What it
 * guarantees, each pinned by a test in test/server:
 *
 * - Once-only sending: a delivery is sent only under its claim, an atomic conditional UPDATE of
 *   `deliveries.locked_until` (store/outbox.ts claimNext), so two processes never send it at
 *   once; a claim whose process died runs out after LEASE_MS and the delivery is claimed again
 *   with the same message id. Pinned by outbox-claims.test.ts "a claim whose lease ran out (its
 *   process crashed) is claimed again, not before", outbox-lanes.mutation.test.ts "by default an
 *   attempt is given up well before its claim runs out" (the lease's length) and
 *   webhook-delivery.test.ts "retries a failing receiver after a restart, honouring Retry-After,
 *   with the same id".
 * - Fenced by the lease: every claim passes `fence` (the leader lease's counter) to claimNext,
 *   whose UPDATE requires it, so a leader that stalled past its lease claims nothing. Pinned by
 *   outbox-worker.test.ts "a worker the leader fence refuses claims nothing, sends nothing and
 *   does not spin".
 * - Lanes isolated: one lane per endpoint (a list's webhook; the SMTP server for every list's
 *   e-mail), at most ENDPOINTS_AT_ONCE at once, each strictly one delivery at a time, oldest
 *   first: a receiver that hangs holds only its own lane. Pinned by independent-deliveries.test.ts
 *   "delays only its own list; it is logged as a timeout and tried again" and outbox-worker.test.ts
 *   "sends to at most endpointsAtOnce endpoints at once, each one delivery at a time".
 * - An attempt ends inside its claim: it is given up after ATTEMPT_LIMIT_MS, half the lease.
 *   Pinned by outbox-lanes.mutation.test.ts "by default an attempt is given up well before its
 *   claim runs out".
 * - Retried for 24 h: back-off with full jitter, at least what Retry-After asked, while the next
 *   attempt falls within RETRY_WINDOW_MS of the message's creation; then failed for good. Pinned
 *   by outbox-retries.test.ts "doubles from 30 s up to 2 h, with full jitter over its upper half"
 *   and "retries while the next attempt is at most 24 h after the message was made".
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Retries stop this long after the message was created. */
export const RETRY_WINDOW_MS = 24 * HOUR;
const FIRST_DELAY_MS = 30_000;
const MAX_DELAY_MS = 2 * HOUR;
/** How long a claim (of a list's delivery or a person's digest) holds. */
export const LEASE_MS = 2 * MINUTE;
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

/** Exponential back-off with full jitter, at least what the receiver's Retry-After asked. */
export function retryDelay(attempt: number, retryAfterMs: number | null, random: number): number {
  const ceiling = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (attempt - 1));
  const jittered = ceiling / 2 + (random * ceiling) / 2;
  return Math.max(jittered, Math.min(retryAfterMs ?? 0, RETRY_WINDOW_MS));
}

/** What became of a message after an attempt. */
export interface AfterAttempt {
  state: 'pending' | 'delivered' | 'failed';
  /** When pending: its next attempt. */
  nextAttemptAt: Date | null;
}

/**
 * Delivered; else pending again after its back-off when the failure is worth retrying and the
 * next attempt falls within the retry window of the message's creation; else failed for good.
 */
export function afterAttempt(
  result: SendResult,
  message: { attempts: number; createdAt: Date },
  at: Date,
  random: () => number,
): AfterAttempt {
  if (result.error === null) return { state: 'delivered', nextAttemptAt: null };
  if (result.retryable) {
    const next = at.getTime() + retryDelay(message.attempts + 1, result.retryAfterMs, random());
    if (next - message.createdAt.getTime() <= RETRY_WINDOW_MS) {
      return { state: 'pending', nextAttemptAt: new Date(next) };
    }
  }
  return { state: 'failed', nextAttemptAt: null };
}

/** One attempt, given up after `limitMs` so that it always ends inside its claim. */
export async function attemptWithin(
  limitMs: number,
  send: () => Promise<SendResult>,
): Promise<SendResult> {
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

/** How one kind of delivery (a list's webhook, a list's e-mail) is sent. */
export interface Channel {
  /** Settles a delivery without sending it now (refused, held); true when it did. */
  settle?(delivery: DeliveryRow, at: Date): Promise<boolean>;
  send(delivery: DeliveryRow): Promise<SendResult>;
  /** After a failed attempt was recorded. */
  failed?(delivery: DeliveryRow, at: Date): Promise<void>;
}

export interface LanesDeps {
  db: Database;
  now: () => number;
  logger: FastifyBaseLogger;
  channels: Record<DeliveryRow['channel'], Channel>;
  /** Randomness for the jitter (tests pass a fixed one). */
  random?: () => number;
  /** Replicas: the leader lease's condition, so only the current leader claims deliveries. */
  fence?: SQL | null;
  /** How many endpoints are sent to at once (tests pass fewer). */
  endpointsAtOnce?: number;
  /** How long one attempt may take before it counts as failed (tests pass less). */
  attemptLimitMs?: number;
  /** A lane sent something and ended: look again at once. */
  onSent: () => void;
}

/** The lists' deliveries, one lane per endpoint in flight. */
export class EndpointLanes {
  /** One lane per endpoint in flight: it sends that endpoint's due deliveries one by one. */
  readonly #lanes = new Map<string, { endpoint: Endpoint; done: Promise<void> }>();
  #stopped = false;

  constructor(private readonly deps: LanesDeps) {}

  /** Starts lanes for endpoints with something due, as many as are free. */
  async dispatch(): Promise<void> {
    if (this.#stopped) return;
    const free = this.#atOnce - this.#lanes.size;
    if (free <= 0) return;
    const due = await dueEndpoints(this.deps.db, new Date(this.deps.now()), free, this.#busy);
    for (const endpoint of due) this.#startLane(endpoint);
  }

  /**
   * When an endpoint outside the lanes next has something to send; null when nothing has, and
   * with every lane taken (the next lane to finish looks again).
   */
  async nextDueAt(): Promise<Date | null> {
    if (this.#lanes.size >= this.#atOnce) return null;
    return nextDueAt(this.deps.db, this.#busy);
  }

  /** The lanes in flight, each settling when it ends. */
  inFlight(): Array<Promise<void>> {
    return [...this.#lanes.values()].map((lane) => lane.done);
  }

  /** No lane claims anything more (the delivery under way in each still ends). */
  stop(): void {
    this.#stopped = true;
  }

  get #atOnce(): number {
    return this.deps.endpointsAtOnce ?? ENDPOINTS_AT_ONCE;
  }

  get #busy(): Endpoint[] {
    return [...this.#lanes.values()].map((lane) => lane.endpoint);
  }

  #startLane(endpoint: Endpoint): void {
    const key = endpointKey(endpoint);
    const done = this.#sendAll(endpoint).then(
      (sent) => {
        this.#lanes.delete(key);
        // A lane that claimed nothing (the fence refused it, another replica took the work)
        // does not look again at once: the same endpoint would be due again and the worker
        // would spin on the store. The timer comes back (at most the worker's poll).
        if (sent > 0) this.deps.onSent();
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

  async #deliver(delivery: DeliveryRow): Promise<void> {
    const { db, now, logger } = this.deps;
    const channel = this.deps.channels[delivery.channel];
    const at = new Date(now());
    if (channel.settle && (await channel.settle(delivery, at))) return;
    const limitMs = this.deps.attemptLimitMs ?? ATTEMPT_LIMIT_MS;
    const result = await attemptWithin(limitMs, () => channel.send(delivery));
    const { state, nextAttemptAt } = afterAttempt(
      result,
      delivery,
      at,
      this.deps.random ?? Math.random,
    );
    await recordAttempt(db, delivery, {
      at,
      status: result.status,
      durationMs: result.durationMs,
      error: result.error,
      state,
      nextAttemptAt,
    });
    const ok = result.error === null;
    // Log the outcome without the body or the URL's query (either may hold a receiver's token).
    logger.info(
      {
        delivery: delivery.messageId,
        channel: delivery.channel,
        attempt: delivery.attempts + 1,
        status: result.status,
        state,
      },
      ok ? 'alert delivered' : 'alert delivery failed',
    );
    if (!ok) await channel.failed?.(delivery, at);
  }
}
