import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEAM_WATCHLISTS_MAX } from '../../src/shared/alerts-api.js';
import { claimLease, holdsLease, leaveReplicas } from '../../src/server/store/leadership.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import {
  claimNext,
  dueEndpoints,
  insertDelivery,
  nextDueAt,
  recordAttempt,
  type DeliveryRow,
  type Endpoint,
} from '../../src/server/store/outbox.js';
import { insertWatchlist, pauseWebhook } from '../../src/server/store/watchlists.js';
import { openTestStore, STORE_BACKENDS } from '../helpers/history-store.js';

/*
 * The outbox's claims in the store, on PGlite and on PostgreSQL: per endpoint, oldest first, one
 * in flight per endpoint, a lease that runs out after a crash, the leader fence, paused lists.
 */
const LEASE = 120_000;
const T = Date.UTC(2026, 5, 1, 8);

describe.each(STORE_BACKENDS)('outbox claims on %s', (backend) => {
  let store: HistoryStore;
  let serial = 0;
  beforeAll(async () => {
    store = await openTestStore(backend);
  }, 60_000);
  afterAll(async () => {
    await store?.close();
  });

  async function list(): Promise<number> {
    const row = await insertWatchlist(
      store.db,
      {
        name: `List ${(serial += 1)}`,
        countries: ['MLI'],
        rules: [],
        owner: null,
        webhookUrl: 'https://hooks.example/x',
        webhookFormat: 'standard',
        webhookSecret: 'whsec_c2VjcmV0',
        email: 'desk@example.com',
      },
      TEAM_WATCHLISTS_MAX,
    );
    return row!.id;
  }

  function deliver(
    watchlistId: number,
    at: number,
    channel: 'webhook' | 'email' = 'webhook',
  ): Promise<DeliveryRow> {
    return insertDelivery(store.db, {
      messageId: `msg_${backend}_${(serial += 1)}`,
      watchlistId,
      channel,
      body: '{}',
      state: 'pending',
      nextAttemptAt: new Date(at),
      createdAt: new Date(at),
    });
  }

  const webhook = (watchlistId: number): Endpoint => ({ channel: 'webhook', watchlistId });
  const claim = (endpoint: Endpoint, at: number) =>
    claimNext(store.db, endpoint, new Date(at), LEASE);
  const due = async (at: number, busy: Endpoint[] = []) =>
    (await dueEndpoints(store.db, new Date(at), 100, busy)).filter((e) => mine.has(key(e)));
  const key = (e: Endpoint) => (e.channel === 'webhook' ? e.watchlistId : 'email');
  // Endpoints made by the test at hand (lists of earlier tests stay in the store).
  const mine = new Set<number | string>();
  const fresh = async (): Promise<number> => {
    const id = await list();
    mine.clear();
    mine.add(id);
    return id;
  };

  it('a claim whose lease ran out (its process crashed) is claimed again, not before', async () => {
    const a = await fresh();
    const sent = await deliver(a, T);
    expect((await claim(webhook(a), T))?.messageId).toBe(sent.messageId);
    expect(await claim(webhook(a), T + LEASE - 1)).toBeNull();
    expect(await due(T + LEASE - 1)).toEqual([]);
    expect(await due(T + LEASE)).toEqual([webhook(a)]);
    const again = await claim(webhook(a), T + LEASE);
    expect(again?.messageId).toBe(sent.messageId);
    expect(again?.lockedUntil?.getTime()).toBe(T + 2 * LEASE);
  });

  it('only the holder of the current leader lease claims (the fence)', async () => {
    const a = await fresh();
    await deliver(a, T);
    const old = await claimLease(store.db, `old-${backend}`, 60);
    expect(old.mine).toBe(true);
    await leaveReplicas(store.db, `old-${backend}`);
    const next = await claimLease(store.db, `new-${backend}`, 60);
    expect(next.mine).toBe(true);
    expect(next.fence).toBe(old.fence + 1);
    const at = new Date(T);
    expect(
      await claimNext(store.db, webhook(a), at, LEASE, holdsLease(`old-${backend}`, old.fence)),
    ).toBeNull();
    expect(
      await claimNext(store.db, webhook(a), at, LEASE, holdsLease(`new-${backend}`, old.fence)),
    ).toBeNull();
    expect(
      await claimNext(store.db, webhook(a), at, LEASE, holdsLease(`new-${backend}`, next.fence)),
    ).not.toBeNull();
    await leaveReplicas(store.db, `new-${backend}`);
  });

  it('one delivery per endpoint in flight, oldest first; other endpoints go on', async () => {
    const a = await fresh();
    const b = await list();
    mine.add(b);
    const later = await deliver(a, T);
    const older = await deliver(a, T - 60_000);
    const other = await deliver(b, T);
    expect(await due(T)).toEqual([webhook(a), webhook(b)]);
    const first = await claim(webhook(a), T);
    expect(first?.id).toBe(older.id);
    // Another process (or lane) asking for the same endpoint gets nothing while it is in flight.
    expect(await claim(webhook(a), T)).toBeNull();
    expect(await due(T)).toEqual([webhook(b)]);
    expect((await claim(webhook(b), T))?.id).toBe(other.id);
    await recordAttempt(store.db, first!, {
      at: new Date(T),
      status: 200,
      durationMs: 5,
      error: null,
      state: 'delivered',
      nextAttemptAt: null,
    });
    expect((await claim(webhook(a), T))?.id).toBe(later.id);
  });

  it('nothing is due before its time; busy endpoints are left to their lane', async () => {
    const a = await fresh();
    await deliver(a, T + 1000);
    expect(await due(T + 999)).toEqual([]);
    expect(await claim(webhook(a), T + 999)).toBeNull();
    expect(await due(T + 1000)).toEqual([webhook(a)]);
    expect(await due(T + 1000, [webhook(a)])).toEqual([]);
  });

  it('the e-mail digests of every list are one endpoint; a paused webhook waits', async () => {
    const a = await fresh();
    const b = await list();
    mine.add(b);
    mine.add('email');
    const mailA = await deliver(a, T - 1000, 'email');
    await deliver(b, T, 'email');
    await deliver(a, T);
    await pauseWebhook(store.db, a, new Date(T), 'test');
    expect(await due(T)).toEqual([{ channel: 'email' }]);
    expect(await claim(webhook(a), T)).toBeNull();
    expect((await claim({ channel: 'email' }, T))?.id).toBe(mailA.id);
    expect(await claim({ channel: 'email' }, T)).toBeNull();
  });

  it('the next wake-up: the oldest due time, or a live claim running out', async () => {
    const a = await fresh();
    const b = await list();
    // Earlier than anything of earlier tests, so it is the store's minimum.
    const early = T - 365 * 86_400_000;
    await deliver(a, early);
    await deliver(a, early + 1000);
    await deliver(b, early + 5000);
    expect((await nextDueAt(store.db, []))?.getTime()).toBe(early);
    await claim(webhook(a), early + 10);
    // a's other delivery waits for the claim (or its lane); b is next.
    expect((await nextDueAt(store.db, []))?.getTime()).toBe(early + 5000);
    expect((await nextDueAt(store.db, [webhook(b)]))?.getTime()).toBe(early + 10 + LEASE);
    await pauseWebhook(store.db, b, new Date(T), 'test');
    expect((await nextDueAt(store.db, []))?.getTime()).toBe(early + 10 + LEASE);
  });
});
