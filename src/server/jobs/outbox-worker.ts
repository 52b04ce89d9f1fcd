import type { SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../store/connection.js';
import {
  claimDue,
  failingSince,
  nextDueAt,
  recordAttempt,
  type DeliveryRow,
} from '../store/outbox.js';
import { pauseWebhook, selectAllWatchlists } from '../store/watchlists.js';
import type { Mailer } from './mailer.js';
import { sendWebhook, type SendOptions, type SendResult } from './webhook-sender.js';

/** Runs `task` once the clock reaches `at`; returns a cancel function (the history's Scheduler). */
export interface Scheduler {
  at(at: number, task: () => void): () => void;
}

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
/** Even with nothing due, look again this often (another process may have queued something). */
const POLL_MS = 5 * MINUTE;

/** Exponential back-off with full jitter, at least what the receiver's Retry-After asked. */
export function retryDelay(attempt: number, retryAfterMs: number | null, random: number): number {
  const ceiling = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (attempt - 1));
  const jittered = ceiling / 2 + (random * ceiling) / 2;
  return Math.max(jittered, Math.min(retryAfterMs ?? 0, RETRY_WINDOW_MS));
}

/**
 * Sends what the outbox holds: webhooks and e-mail digests. Deliveries live in the store, so a
 * restart loses nothing and sends again with the same message id; claims are leases, so two
 * processes never send one delivery at the same moment.
 */
export class OutboxWorker {
  #cancel: (() => void) | null = null;
  #running: Promise<void> = Promise.resolve();
  #stopped = false;

  constructor(private readonly deps: OutboxDeps) {}

  start(): void {
    this.kick();
  }

  /** Sends what is due now, then sleeps until the next delivery falls due. */
  kick(): void {
    if (this.#stopped) return;
    this.#running = this.#running
      .then(() => this.runDue())
      .then(() => this.#arm())
      .catch((error: unknown) => {
        this.deps.logger.error({ err: error }, 'outbox run failed');
      });
  }

  async idle(): Promise<void> {
    let current: Promise<void>;
    do {
      current = this.#running;
      await current;
    } while (current !== this.#running);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#cancel?.();
    await this.idle();
  }

  /** Sends every due delivery once; resolves when done (tests call it with their clock). */
  async runDue(): Promise<number> {
    let sent = 0;
    for (;;) {
      const claimed = await claimDue(
        this.deps.db,
        new Date(this.deps.now()),
        LEASE_MS,
        20,
        this.deps.fence ?? null,
      );
      if (claimed.length === 0) return sent;
      const lists = new Map((await selectAllWatchlists(this.deps.db)).map((l) => [l.id, l]));
      for (const delivery of claimed) {
        await this.#deliver(delivery, lists.get(delivery.watchlistId));
        sent += 1;
      }
    }
  }

  async #arm(): Promise<void> {
    if (this.#stopped) return;
    this.#cancel?.();
    const due = (await nextDueAt(this.deps.db))?.getTime() ?? Infinity;
    const at = Math.min(due, this.deps.now() + POLL_MS);
    this.#cancel = this.deps.scheduler.at(at, () => this.kick());
  }

  async #deliver(
    delivery: DeliveryRow,
    list: { webhookUrl: string | null; webhookSecret: string | null } | undefined,
  ): Promise<void> {
    const { now, logger } = this.deps;
    const at = new Date(now());
    let result: SendResult;
    if (delivery.channel === 'webhook') {
      result =
        list?.webhookUrl && list.webhookSecret
          ? await sendWebhook(
              { url: list.webhookUrl, secret: list.webhookSecret },
              delivery.messageId,
              delivery.body,
              this.deps.send,
            )
          : {
              status: null,
              retryAfterMs: null,
              durationMs: 0,
              error: 'the watchlist has no webhook any more',
              retryable: false,
            };
    } else {
      result = this.deps.mailer
        ? await this.deps.mailer.send(delivery.body)
        : {
            status: null,
            retryAfterMs: null,
            durationMs: 0,
            error: 'SMTP is not configured',
            retryable: false,
          };
    }
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
