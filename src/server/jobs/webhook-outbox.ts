import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../store/connection.js';
import { failingSince, selectWebhookTarget, type DeliveryRow } from '../store/outbox.js';
import { pauseWebhook } from '../store/watchlists.js';
import type { Channel } from './outbox-lanes.js';
import { sendWebhook, type SendOptions, type SendResult } from './webhook-sender.js';

/*
 * What the outbox sends to a list's webhook (one alert a delivery, signed). Each list's webhook
 * is its own endpoint, in its own lane of jobs/outbox-lanes.ts (claims fenced by the lease, lanes
 * isolated, retried for 24 h with the same message id: guarantees kept and pinned there). What
 * this file guarantees, each pinned by a test in test/server:
 *
 * - Sent where the list points now: the target is read at each attempt, not from the queue; a
 *   list without a signed webhook any more fails the delivery in words, not retried. Pinned by
 *   outbox-retries.test.ts
 *   "without SMTP, or once a list has no webhook, a delivery fails in words and is not retried".
 * - Paused after 3 days: a webhook whose every attempt failed for PAUSE_AFTER_MS since its last
 *   success is paused (its deliveries wait until the list is saved); the list's e-mail failing
 *   does not count. Pinned by outbox-retries.test.ts "comes after exactly 3 days of failures
 *   without a success".
 */

const DAY = 24 * 3_600_000;
/** An endpoint failing this long without one success is paused. */
export const PAUSE_AFTER_MS = 3 * DAY;

const NO_WEBHOOK: SendResult = {
  status: null,
  retryAfterMs: null,
  durationMs: 0,
  error: 'the watchlist has no webhook any more',
  retryable: false,
};

/** A list's webhook deliveries, for the outbox's lanes. */
export function listWebhooks(deps: {
  db: Database;
  logger: FastifyBaseLogger;
  send: SendOptions;
}): Channel {
  const { db, logger } = deps;
  return {
    async send(delivery: DeliveryRow): Promise<SendResult> {
      const target = await selectWebhookTarget(db, delivery.watchlistId);
      return target
        ? sendWebhook(target, delivery.messageId, delivery.body, deps.send)
        : NO_WEBHOOK;
    },

    async failed(delivery: DeliveryRow, at: Date): Promise<void> {
      const since = await failingSince(db, delivery.watchlistId);
      if (since && at.getTime() - since.getTime() >= PAUSE_AFTER_MS) {
        await pauseWebhook(
          db,
          delivery.watchlistId,
          at,
          `Paused: every delivery since ${since.toISOString()} failed. Save the watchlist to resume.`,
        );
        logger.warn({ watchlist: delivery.watchlistId }, 'webhook paused after 3 days of failures');
      }
    },
  };
}
