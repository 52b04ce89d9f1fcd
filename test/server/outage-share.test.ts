import { createServer } from 'node:net';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { MissConnections } from '../../src/server/replicas/miss-connections.js';
import { SharedQuota } from '../../src/server/replicas/shared-quota.js';

/*
 * A replica that cannot reach the shared ledger spends at most its share of the key's hour:
 * what was left ÷ the replicas last seen, rounded down (rounded up, N replicas together would
 * overspend), and background work keeps its share of the reserve, also rounded down.
 */
const T = Date.UTC(2026, 5, 1, 8);

/** A loopback port nothing listens on: every connection to it is refused at once. */
async function refusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const pools: pg.Pool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.end().catch(() => undefined)));
});

async function offline(replicas: number, reserve = 10) {
  const pool = new pg.Pool({ host: '127.0.0.1', port: await refusedPort(), max: 2 });
  pool.on('error', () => {});
  pools.push(pool);
  const logs: string[] = [];
  const reports: boolean[] = [];
  let now = T;
  const quota = new SharedQuota({
    pool,
    connections: new MissConnections(),
    reserve,
    now: () => now,
    logger: {
      info: (message: string) => logs.push(message),
      warn: (_: unknown, message: string) => logs.push(message),
      error: () => {},
    } as never,
    replicasSeen: () => replicas,
    reportStore: (ok) => reports.push(ok),
  });
  return { quota, logs, reports, advance: (ms: number) => (now += ms) };
}

async function grants(quota: SharedQuota, purpose: 'interactive' | 'background', asks: number) {
  let granted = 0;
  for (let i = 0; i < asks; i++) if ((await quota.acquire(purpose)).ok) granted++;
  return granted;
}

describe('the outage share of a replica', () => {
  it('is what was left ÷ the replicas last seen, rounded down', async () => {
    const { quota, logs, reports } = await offline(3);
    // 50 (the assumed limit) ÷ 3 = 16.7.
    expect(await grants(quota, 'interactive', 16)).toBe(16);
    expect(await quota.acquire('interactive')).toEqual({
      ok: false,
      retryAfterMs: 5 * 60_000,
      reason:
        "the shared budget ledger is unreachable, and this replica's share (16 of the key's requests, for 3 replicas) is spent",
    });
    expect(quota.mode()).toBe('fallback');
    expect(logs).toEqual([
      'budget ledger unreachable: spending at most this replica’s share until it is back',
    ]);
    expect(reports).not.toContain(true);
  });

  it('follows the limit the upstream told during the outage', async () => {
    const { quota } = await offline(3);
    const first = await quota.acquire('interactive');
    expect(first).toEqual({ ok: true, seq: -1 });
    if (first.ok) quota.recordHeaders(20, 19, first.seq);
    // 20 ÷ 3 = 6.7, one of them spent.
    expect(await grants(quota, 'interactive', 10)).toBe(5);
  });

  it('keeps the reserve’s share for people: background stops above it', async () => {
    const { quota } = await offline(3);
    // Share 16, reserve 10 ÷ 3 = 3.3 → 3: background runs while more than 3 are left.
    expect(await grants(quota, 'background', 20)).toBe(13);
    expect(await grants(quota, 'interactive', 10)).toBe(3);
  });

  it('counts no replicas as one', async () => {
    const { quota } = await offline(0);
    expect(await grants(quota, 'interactive', 60)).toBe(50);
  });

  it('honours a 429’s wait even with the ledger away', async () => {
    const { quota, advance } = await offline(2);
    expect((await quota.acquire('interactive')).ok).toBe(true);
    quota.block(90_000);
    await quota.idle();
    advance(30_000);
    expect(await quota.acquire('interactive')).toEqual({
      ok: false,
      retryAfterMs: 60_000,
      reason: 'the Risk API asked us to wait (its hourly limit for this key is reached)',
    });
    advance(60_000);
    expect((await quota.acquire('interactive')).ok).toBe(true);
  });
});
