import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimLease, holdsLease, leaveReplicas } from '../../src/server/store/leadership.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { claimNext, insertDelivery, selectDelivery } from '../../src/server/store/outbox.js';
import { openTestStore, STORE_BACKENDS } from '../helpers/history-store.js';
import { deliveryList, recordingLogger, testOutboxWorker } from '../helpers/outbox.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

/*
 * A leader that dies mid-send (issue 30, point 5: the replicas' failover test under load). The
 * dead leader's claim on the delivery it was sending stood for its whole lease (2 min), and one
 * delivery per endpoint is in flight, so the new leader sent nothing to that endpoint meanwhile:
 * 62 alerts raised by the new leader, none delivered within 45 s. A new term takes those claims
 * over: the new leader sends the delivery again (same message id) and everything after it, at
 * once, on the clock of the moment it took over.
 */
const CLAIM_MS = 120_000;

describe.each(STORE_BACKENDS)('a new leader on %s', (backend) => {
  let store: HistoryStore;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    store = await openTestStore(backend);
    receiver = await startWebhookReceiver();
  }, 60_000);
  afterAll(async () => {
    await receiver?.close();
    await store?.close();
  });

  it("sends at once what the dead leader had claimed and what queued behind it, not after the claim's 2 minutes", async () => {
    const db = store.db;
    const now = Date.now();
    const list = await deliveryList(db, `Failover ${backend}`, receiver.url);
    const queued = [];
    for (let i = 0; i < 3; i += 1) {
      queued.push(
        await insertDelivery(db, {
          messageId: `msg_takeover_${backend}_${i}`,
          watchlistId: list,
          channel: 'webhook',
          body: JSON.stringify({ n: i }),
          state: 'pending',
          nextAttemptAt: new Date(now - 1_000 + i),
          createdAt: new Date(now - 1_000 + i),
        }),
      );
    }

    // The old leader claims the first delivery under its fence, then dies before recording the
    // attempt; its lease runs out (leaveReplicas ends it now, as running out would).
    const oldLease = await claimLease(db, `old-${backend}`, 60);
    expect(oldLease.mine).toBe(true);
    const inFlight = await claimNext(
      db,
      { channel: 'webhook', watchlistId: list },
      new Date(now),
      CLAIM_MS,
      holdsLease(`old-${backend}`, oldLease.fence),
    );
    expect(inFlight?.messageId).toBe(queued[0]!.messageId);
    await leaveReplicas(db, `old-${backend}`);

    // The next leader's outbox, on the clock of the moment it took over (nothing waits 2 min).
    const lease = await claimLease(db, `new-${backend}`, 60);
    expect(lease.mine).toBe(true);
    expect(lease.fence).toBe(oldLease.fence + 1);
    const { lines, logger } = recordingLogger();
    const worker = testOutboxWorker(db, () => now, {
      fence: holdsLease(`new-${backend}`, lease.fence),
      logger,
    });
    try {
      worker.start();
      await worker.idle();
      await worker.stop();
    } finally {
      await leaveReplicas(db, `new-${backend}`);
    }

    expect(
      receiver.received.map((r) => r.headers['webhook-id']),
      'sent by the new leader, oldest first, the dead leader’s delivery again under its id',
    ).toEqual(queued.map((d) => d.messageId));
    for (const delivery of queued) {
      expect((await selectDelivery(db, delivery.messageId))?.state).toBe('delivered');
    }
    expect(lines.map((l) => l.message)).toContain(
      'deliveries claimed by an earlier leader taken over, to be sent again now',
    );
  });

  it('a leader that lost its lease takes over nothing (the take-over is fenced)', async () => {
    const db = store.db;
    const now = Date.now();
    const list = await deliveryList(db, `Fenced ${backend}`, receiver.url);
    const delivery = await insertDelivery(db, {
      messageId: `msg_fenced_${backend}`,
      watchlistId: list,
      channel: 'webhook',
      body: '{}',
      state: 'pending',
      nextAttemptAt: new Date(now - 1_000),
      createdAt: new Date(now - 1_000),
    });
    const current = await claimLease(db, `current-${backend}`, 60);
    expect(current.mine).toBe(true);
    const claimed = await claimNext(
      db,
      { channel: 'webhook', watchlistId: list },
      new Date(now),
      CLAIM_MS,
      holdsLease(`current-${backend}`, current.fence),
    );
    expect(claimed?.messageId).toBe(delivery.messageId);

    // A deposed leader's outbox (an earlier fence) starts: the current leader's claim stands.
    const before = receiver.received.length;
    const deposed = testOutboxWorker(db, () => now, {
      fence: holdsLease(`deposed-${backend}`, current.fence - 1),
    });
    deposed.start();
    await deposed.idle();
    await deposed.stop();
    expect(receiver.received.length).toBe(before);
    expect((await selectDelivery(db, delivery.messageId))?.lockedUntil?.getTime()).toBe(
      now + CLAIM_MS,
    );
    await leaveReplicas(db, `current-${backend}`);
  });
});
