import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEAM_WATCHLISTS_MAX } from '../../src/shared/alerts-api.js';
import type { Mailer } from '../../src/server/jobs/mailer.js';
import { RETRY_WINDOW_MS, retryDelay } from '../../src/server/jobs/outbox-lanes.js';
import type { OutboxDeps } from '../../src/server/jobs/outbox-worker.js';
import { PAUSE_AFTER_MS } from '../../src/server/jobs/webhook-outbox.js';
import type { SendResult } from '../../src/server/jobs/webhook-sender.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import {
  endpointKey,
  insertDelivery,
  nextDueAt,
  selectDelivery,
  selectDeliveryLog,
} from '../../src/server/store/outbox.js';
import { insertWatchlist, selectWatchlistById } from '../../src/server/store/watchlists.js';
import { HOUR, MINUTE, TestClock } from '../helpers/clock.js';
import { openAppStore } from '../helpers/history-store.js';
import { deliveryList, recordingLogger, testOutboxWorker } from '../helpers/outbox.js';
import { startWebhookReceiver } from '../helpers/webhook-receiver.js';

/*
 * What the outbox does with each attempt's outcome: the back-off (exponential with jitter, at
 * least the receiver's Retry-After, capped), the 24-hour retry window at its edge, outcomes that
 * are never retried, and the pause of a webhook failing for exactly 3 days.
 */
const DAY = 24 * HOUR;
let store: HistoryStore;
let serial = 0;
beforeAll(async () => {
  store = await openAppStore();
}, 60_000);
afterAll(async () => {
  await store?.close();
});

describe('the back-off', () => {
  it('doubles from 30 s up to 2 h, with full jitter over its upper half', () => {
    expect(retryDelay(1, null, 0)).toBe(15_000);
    expect(retryDelay(1, null, 1)).toBe(30_000);
    expect(retryDelay(2, null, 0.5)).toBe(45_000);
    expect(retryDelay(3, null, 0.5)).toBe(90_000);
    expect(retryDelay(9, null, 1)).toBe(2 * HOUR);
    expect(retryDelay(30, null, 0)).toBe(HOUR);
  });

  it('waits at least what Retry-After asked, but never past the retry window', () => {
    expect(retryDelay(1, 10 * MINUTE, 0)).toBe(10 * MINUTE);
    expect(retryDelay(1, 1000, 0)).toBe(15_000);
    expect(retryDelay(1, 2 * DAY, 0)).toBe(RETRY_WINDOW_MS);
    expect(RETRY_WINDOW_MS).toBe(DAY);
  });
});

const { lines: logs, logger } = recordingLogger();

function list(webhookUrl: string | null): Promise<number> {
  return deliveryList(store.db, `Retries ${(serial += 1)}`, webhookUrl);
}

function queue(
  watchlistId: number,
  channel: 'webhook' | 'email',
  dueAt: number,
  createdAt = dueAt,
) {
  return insertDelivery(store.db, {
    messageId: `msg_retries_${(serial += 1)}`,
    watchlistId,
    channel,
    body: '{"to":"desk@example.com"}',
    state: 'pending',
    nextAttemptAt: new Date(dueAt),
    createdAt: new Date(createdAt),
  });
}

const mailerAnswering = (result: SendResult): Mailer => ({
  send: () => Promise.resolve(result),
  close() {},
});
const failure = (retryable: boolean, retryAfterMs: number | null = null): SendResult => ({
  status: 451,
  retryAfterMs,
  durationMs: 3,
  error: 'mailbox unavailable',
  retryable,
});

async function runOnce(clock: TestClock, extra: Partial<OutboxDeps>) {
  const outbox = testOutboxWorker(store.db, clock.now, { logger, ...extra });
  outbox.start();
  await outbox.idle();
  await outbox.stop();
}

describe('endpoints', () => {
  it('each has its own lane key: every list’s webhook, and the one e-mail lane', () => {
    const keys = [
      endpointKey({ channel: 'webhook', watchlistId: 1 }),
      endpointKey({ channel: 'webhook', watchlistId: 2 }),
      endpointKey({ channel: 'email' }),
    ];
    expect(new Set(keys).size).toBe(3);
    expect(endpointKey({ channel: 'webhook', watchlistId: 1 })).toBe(keys[0]);
  });
});

describe('the retry window', () => {
  it('with nothing pending, nothing is due', async () => {
    expect(await nextDueAt(store.db, [])).toBeNull();
  });

  it('retries while the next attempt is at most 24 h after the message was made', async () => {
    const clock = new TestClock(Date.UTC(2026, 7, 1, 8));
    const t = clock.t;
    const owner = await list(null);
    // Attempt 1 at t, jitter 0.5: the next would be at t + 22.5 s.
    const inside = await queue(owner, 'email', t, t + 22_500 - RETRY_WINDOW_MS);
    const outside = await queue(owner, 'email', t, t + 22_500 - RETRY_WINDOW_MS - 1);
    logs.length = 0;
    await runOnce(clock, { mailer: mailerAnswering(failure(true)) });
    const kept = await selectDelivery(store.db, inside.messageId);
    expect(kept).toMatchObject({ state: 'pending', attempts: 1, lastError: 'mailbox unavailable' });
    expect(kept?.nextAttemptAt.getTime()).toBe(t + 22_500);
    expect(kept?.lockedUntil).toBeNull();
    const dropped = await selectDelivery(store.db, outside.messageId);
    expect(dropped).toMatchObject({ state: 'failed', attempts: 1 });
    expect(dropped?.nextAttemptAt.getTime()).toBe(t);
    expect(logs.filter((l) => l.level === 'info')).toEqual([
      {
        level: 'info',
        message: 'alert delivery failed',
        fields: {
          delivery: inside.messageId,
          channel: 'email',
          attempt: 1,
          status: 451,
          state: 'pending',
        },
      },
      {
        level: 'info',
        message: 'alert delivery failed',
        fields: {
          delivery: outside.messageId,
          channel: 'email',
          attempt: 1,
          status: 451,
          state: 'failed',
        },
      },
    ]);
    // The kept one succeeds at its time and is done.
    clock.set(t + 22_500);
    logs.length = 0;
    await runOnce(clock, {
      mailer: mailerAnswering({ ...failure(false), error: null, status: 250 }),
    });
    expect(await selectDelivery(store.db, inside.messageId)).toMatchObject({
      state: 'delivered',
      attempts: 2,
      lastError: null,
    });
    expect(logs).toMatchObject([{ level: 'info', message: 'alert delivered' }]);
  });

  it('waits what Retry-After asked; an answer not worth retrying fails at once', async () => {
    const clock = new TestClock(Date.UTC(2026, 7, 3, 8));
    const owner = await list(null);
    const later = await queue(owner, 'email', clock.t);
    await runOnce(clock, { mailer: mailerAnswering(failure(true, 3 * HOUR)) });
    expect((await selectDelivery(store.db, later.messageId))?.nextAttemptAt.getTime()).toBe(
      clock.t + 3 * HOUR,
    );
    clock.advance(3 * HOUR);
    await runOnce(clock, { mailer: mailerAnswering(failure(false)) });
    expect(await selectDelivery(store.db, later.messageId)).toMatchObject({
      state: 'failed',
      attempts: 2,
    });
  });

  it('without SMTP, or once a list has no webhook, a delivery fails in words and is not retried', async () => {
    const clock = new TestClock(Date.UTC(2026, 7, 5, 8));
    const owner = await list(null);
    const mail = await queue(owner, 'email', clock.t);
    const hook = await queue(owner, 'webhook', clock.t);
    // A URL without its secret cannot be signed for: as good as no webhook.
    const unsigned = (await insertWatchlist(
      store.db,
      {
        name: `Retries ${(serial += 1)}`,
        countries: ['MLI'],
        rules: [],
        owner: null,
        webhookUrl: 'https://hooks.example/unsigned',
        webhookFormat: 'standard',
        webhookSecret: null,
        email: null,
      },
      TEAM_WATCHLISTS_MAX,
    ))!.id;
    const unsignedHook = await queue(unsigned, 'webhook', clock.t);
    await runOnce(clock, {});
    expect(await selectDelivery(store.db, unsignedHook.messageId)).toMatchObject({
      state: 'failed',
      lastError: 'the watchlist has no webhook any more',
    });
    expect(await selectDelivery(store.db, mail.messageId)).toMatchObject({
      state: 'failed',
      lastError: 'SMTP is not configured',
    });
    expect(await selectDelivery(store.db, hook.messageId)).toMatchObject({
      state: 'failed',
      lastError: 'the watchlist has no webhook any more',
    });
    expect((await selectDeliveryLog(store.db, owner, 10)).map((e) => e.status)).toEqual([
      null,
      null,
    ]);
  });
});

describe('the pause', () => {
  it('comes after exactly 3 days of failures without a success', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const clock = new TestClock(Date.UTC(2026, 7, 10, 8));
      const t0 = clock.t;
      const id = await list(receiver.url);
      const failAt = async (at: number) => {
        clock.set(at);
        receiver.answers.push({ status: 500 });
        // Created long ago, so none of these is retried later.
        await queue(id, 'webhook', at, at - RETRY_WINDOW_MS);
        await runOnce(clock, {});
      };
      await failAt(t0 - DAY);
      // A success resets the streak: it starts at the first failure after it.
      clock.set(t0 - 1);
      await queue(id, 'webhook', t0 - 1, t0 - 1 - RETRY_WINDOW_MS);
      await runOnce(clock, {});
      await failAt(t0);
      await failAt(t0 + PAUSE_AFTER_MS - 1);
      expect((await selectWatchlistById(store.db, id))?.webhookPausedAt).toBeNull();
      // The list's e-mail failing (no SMTP here) does not pause its webhook.
      clock.set(t0 + PAUSE_AFTER_MS);
      await queue(id, 'email', clock.t);
      await runOnce(clock, {});
      expect((await selectWatchlistById(store.db, id))?.webhookPausedAt).toBeNull();
      logs.length = 0;
      await failAt(t0 + PAUSE_AFTER_MS);
      const paused = await selectWatchlistById(store.db, id);
      expect(paused?.webhookPausedAt?.getTime()).toBe(t0 + PAUSE_AFTER_MS);
      expect(paused?.webhookPausedReason).toBe(
        `Paused: every delivery since ${new Date(t0).toISOString()} failed. Save the watchlist to resume.`,
      );
      expect(logs.filter((l) => l.level === 'warn')).toEqual([
        {
          level: 'warn',
          message: 'webhook paused after 3 days of failures',
          fields: { watchlist: id },
        },
      ]);
      expect(PAUSE_AFTER_MS).toBe(3 * DAY);
    } finally {
      await receiver.close();
    }
  });
});
