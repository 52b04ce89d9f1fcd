import { count, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboxDeps, OutboxWorker } from '../../src/server/jobs/outbox-worker.js';
import type { Mailer } from '../../src/server/jobs/mailer.js';
import type { SendResult } from '../../src/server/jobs/webhook-sender.js';
import { deliveries, deliveryAttempts } from '../../src/server/store/alerts-schema.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import {
  insertDelivery,
  selectDelivery,
  selectDeliveryLog,
} from '../../src/server/store/outbox.js';
import { TestClock } from '../helpers/clock.js';
import { openAppStore } from '../helpers/history-store.js';
import { ManualScheduler } from '../helpers/manual-scheduler.js';
import { ACCEPTED, deliveryList, testOutboxWorker } from '../helpers/outbox.js';
import { startWebhookReceiver } from '../helpers/webhook-receiver.js';

/*
 * The outbox worker on its own, against a store and real receivers: how many endpoints it sends
 * to at once, one delivery at a time per endpoint, and an attempt that never ends.
 */
let store: HistoryStore;
let serial = 0;
beforeAll(async () => {
  store = await openAppStore();
}, 60_000);
afterAll(async () => {
  await store?.close();
});

function worker(clock: TestClock, extra: Partial<OutboxDeps>): OutboxWorker {
  return testOutboxWorker(store.db, clock.now, extra);
}

function list(webhookUrl: string | null): Promise<number> {
  return deliveryList(store.db, `List ${(serial += 1)}`, webhookUrl);
}

async function queue(watchlistId: number, at: number, channel: 'webhook' | 'email' = 'webhook') {
  return insertDelivery(store.db, {
    messageId: `msg_worker_${(serial += 1)}`,
    watchlistId,
    channel,
    body: JSON.stringify({ n: serial }),
    state: 'pending',
    nextAttemptAt: new Date(at),
    createdAt: new Date(at),
  });
}

async function attemptsOf(ids: number[]): Promise<number> {
  const [row] = await store.db
    .select({ n: count() })
    .from(deliveryAttempts)
    .where(inArray(deliveryAttempts.deliveryId, ids));
  return Number(row?.n ?? 0);
}

describe('the outbox worker', () => {
  it('sends to at most endpointsAtOnce endpoints at once, each one delivery at a time', async () => {
    const receiver = await startWebhookReceiver();
    for (let i = 0; i < 10; i += 1) receiver.answers.push({ status: 0 });
    const clock = new TestClock(Date.UTC(2026, 6, 1, 8));
    const t = clock.t;
    const [a, b, c] = [
      await list(receiver.url),
      await list(receiver.url),
      await list(receiver.url),
    ];
    const a1 = await queue(a, t - 3000);
    const b1 = await queue(b, t - 2000);
    const c1 = await queue(c, t - 1000);
    const a2 = await queue(a, t);
    const ids = [a1.id, a2.id, b1.id, c1.id];
    const outbox = worker(clock, { endpointsAtOnce: 2 });
    try {
      outbox.start();
      // The receiver never answers: the first two endpoints hold both lanes until they time out.
      await receiver.waitFor(3);
      expect(await attemptsOf(ids)).toBeGreaterThanOrEqual(1);
      const got = await receiver.waitFor(4);
      const order = got.map((r) => r.headers['webhook-id']);
      // a2 waits for a1's attempt to end (one at a time per endpoint), c for a free lane.
      expect(order.slice(0, 2).sort()).toEqual([a1.messageId, b1.messageId].sort());
      expect(order.slice(2).sort()).toEqual([a2.messageId, c1.messageId].sort());
      await outbox.idle();
      expect(await attemptsOf(ids)).toBe(4);
      const logOfA = await selectDeliveryLog(store.db, a, 10);
      expect(logOfA.map((e) => e.messageId).sort()).toEqual([a1.messageId, a2.messageId].sort());
      expect(logOfA.every((e) => e.state === 'pending' && /within 2000 ms/.test(e.error!))).toBe(
        true,
      );
    } finally {
      await outbox.stop();
      await receiver.close();
    }
  }, 60_000);

  it('gives up an attempt that never ends after attemptLimitMs, and retries it later', async () => {
    // The first send never ends (until the test answers it late); later ones succeed.
    const calls: Array<(result: SendResult) => void> = [];
    const sent = ACCEPTED;
    const mailer: Mailer = {
      send: () =>
        calls.length === 0
          ? new Promise((resolve) => calls.push(resolve))
          : (calls.push(() => undefined), Promise.resolve(sent)),
      close() {},
    };
    const clock = new TestClock(Date.UTC(2026, 6, 2, 8));
    const scheduler = new ManualScheduler(clock.now);
    const outbox = worker(clock, { mailer, scheduler, attemptLimitMs: 300 });
    const mail = await queue(await list(null), clock.t, 'email');
    try {
      outbox.start();
      await outbox.idle();
      expect(calls).toHaveLength(1);
      expect(await selectDeliveryLog(store.db, mail.watchlistId, 10)).toMatchObject([
        { attempt: 1, state: 'pending', error: 'no complete answer within 300 ms' },
      ]);
      const retryAt = (await selectDelivery(store.db, mail.messageId))!.nextAttemptAt.getTime();
      expect(retryAt).toBeGreaterThan(clock.t);
      // The late answer of the abandoned attempt changes nothing.
      calls[0]!(sent);
      clock.set(retryAt);
      scheduler.runDue();
      await outbox.idle();
      expect(calls).toHaveLength(2);
      const [row] = await store.db
        .select({ state: deliveries.state, attempts: deliveries.attempts })
        .from(deliveries)
        .where(inArray(deliveries.id, [mail.id]));
      expect(row).toEqual({ state: 'delivered', attempts: 2 });
    } finally {
      await outbox.stop();
    }
  }, 30_000);

  it('a worker the leader fence refuses claims nothing, sends nothing and does not spin', async () => {
    const receiver = await startWebhookReceiver();
    const clock = new TestClock(Date.UTC(2026, 6, 3, 8));
    const id = await list(receiver.url);
    const due = await queue(id, clock.t - 1000);
    // A replica that lost the lease: every claim it makes is refused by the fence.
    const outbox = worker(clock, { fence: sql`false` });
    try {
      outbox.start();
      // It settles (a lane that claimed nothing does not start the next run at once; the timer
      // comes back later). Spinning, it would never be idle and this would time out.
      await outbox.idle();
      expect(receiver.received).toHaveLength(0);
      expect((await selectDelivery(store.db, due.messageId))?.state).toBe('pending');
      expect(await attemptsOf([due.id])).toBe(0);
    } finally {
      await outbox.stop();
      await receiver.close();
    }
  }, 30_000);
});
