import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { MissConnections } from '../../src/server/replicas/miss-connections.js';
import { SharedQuota } from '../../src/server/replicas/shared-quota.js';
import { migratedPostgresDatabase } from '../helpers/history-store.js';

/*
 * The shared quota ledger on the test run's real PostgreSQL server, one SharedQuota per
 * "replica", no app around it (a few milliseconds a test, so mutation testing can run it for
 * every mutant of replicas/shared-quota.ts). The outage share alone: outage-share.test.ts.
 */

/** A pool that can be made to fail like a PostgreSQL server that went away. */
class SwitchablePool extends pg.Pool {
  down = false;
  override query(...args: unknown[]): never {
    if (this.down) return Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1')) as never;
    return (super.query as (...a: unknown[]) => never)(...args);
  }
  override connect(...args: unknown[]): never {
    if (this.down) return Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1')) as never;
    return (super.connect as (...a: unknown[]) => never)(...args);
  }
}

describe('the shared quota ledger', () => {
  const pools: pg.Pool[] = [];
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((pool) => pool.end().catch(() => undefined)));
  });

  interface Replica {
    quota: SharedQuota;
    pool: SwitchablePool;
    connections: MissConnections;
    /** Every log line, as [message, fields]. */
    logs: Array<[string, unknown]>;
    /** What it told the store's health: true reachable, false not. */
    reports: boolean[];
  }

  /** `oneConnection`: a pool of one (see `ledgerOnOneConnection`). */
  function ledgerOn(url: string, replicas = 3, oneConnection = false): Replica {
    const pool = new SwitchablePool(
      oneConnection
        ? { connectionString: url, max: 1, connectionTimeoutMillis: 10_000, idleTimeoutMillis: 0 }
        : { connectionString: url, max: 4 },
    );
    pool.on('error', () => {});
    pools.push(pool);
    const logs: Array<[string, unknown]> = [];
    const reports: boolean[] = [];
    const connections = new MissConnections();
    const quota = new SharedQuota({
      pool,
      connections,
      reserve: 10,
      now: Date.now,
      logger: {
        info: (message: string) => logs.push([message, null]),
        warn: (fields: unknown, message: string) => logs.push([message, fields]),
        error: () => {},
      } as never,
      replicasSeen: () => replicas,
      reportStore: (ok) => reports.push(ok),
    });
    return { quota, pool, connections, logs, reports };
  }

  /**
   * A replica whose pool has one connection, already open, and whose wait for it gives up in
   * 200 ms (a busy pool). The connection is opened first with a generous timeout: on a loaded
   * machine opening one can itself take longer than 200 ms (CI, 28 Nov), which is not the busy
   * pool these tests are about. pg-pool reads the timeout at each `connect`, so lowering it
   * afterwards applies to every later wait.
   */
  async function ledgerOnOneConnection(url: string): Promise<Replica> {
    const replica = ledgerOn(url, 1, true);
    ((await replica.pool.connect()) as pg.PoolClient).release();
    replica.pool.options.connectionTimeoutMillis = 200;
    return replica;
  }

  /** The ledger's row as PostgreSQL holds it. */
  async function ledgerRow(url: string): Promise<Record<string, unknown>> {
    const reader = new pg.Client({ connectionString: url });
    await reader.connect();
    try {
      const { rows } = await reader.query('select state from quota_ledger where id = 1');
      return (rows[0]?.state ?? {}) as Record<string, unknown>;
    } finally {
      await reader.end();
    }
  }

  it('grants the key’s 50 requests once among three replicas asking at once, and remembers them after a restart', async () => {
    const url = await migratedPostgresDatabase();
    const replicas = [ledgerOn(url), ledgerOn(url), ledgerOn(url)];
    const grants = await Promise.all(
      Array.from({ length: 120 }, (_, i) => replicas[i % 3]!.quota.acquire('interactive')),
    );
    expect(grants.filter((g) => g.ok)).toHaveLength(50);
    // Every granted request has its own sequence number (headers are tied to requests by it).
    const seqs = grants.flatMap((g) => (g.ok ? [g.seq] : []));
    expect(new Set(seqs).size).toBe(50);

    const restarted = ledgerOn(url);
    const after = await restarted.quota.acquire('interactive');
    expect(after.ok).toBe(false);
    await restarted.quota.refresh();
    expect(restarted.quota.mirror.usedLast60Min()).toBe(50);
  });

  it('keeps the reserve for people across replicas: background work stops 10 short of the limit', async () => {
    const url = await migratedPostgresDatabase();
    const replicas = [ledgerOn(url), ledgerOn(url)];
    const grants = await Promise.all(
      Array.from({ length: 60 }, (_, i) => replicas[i % 2]!.quota.acquire('background')),
    );
    expect(grants.filter((g) => g.ok)).toHaveLength(40);
    expect((await replicas[0]!.quota.acquire('interactive')).ok).toBe(true);
  });

  it('with PostgreSQL down spends at most its share of what was left, and books it when back', async () => {
    const url = await migratedPostgresDatabase();
    const { quota, pool } = ledgerOn(url, 3);
    for (let i = 0; i < 20; i++) expect((await quota.acquire('interactive')).ok).toBe(true);

    pool.down = true;
    let granted = 0;
    for (let i = 0; i < 30; i++) if ((await quota.acquire('interactive')).ok) granted++;
    // (50 − 20) ÷ 3 replicas last seen.
    expect(granted).toBe(10);
    expect(quota.mode()).toBe('fallback');

    pool.down = false;
    await quota.refresh();
    expect(quota.mode()).toBe('shared');
    const other = ledgerOn(url);
    await other.quota.refresh();
    expect(other.quota.mirror.usedLast60Min()).toBe(30);
  });

  it('writes an answer’s headers and a 429’s wait to the ledger, where every replica reads them', async () => {
    const url = await migratedPostgresDatabase();
    const [one, two] = [ledgerOn(url), ledgerOn(url)];
    const grant = await one.quota.acquire('interactive');
    expect(grant).toEqual({ ok: true, seq: 1 });
    one.quota.recordHeaders(50, 40, 1);
    // idle() settles once the write is in the ledger, not before.
    await one.quota.idle();
    expect(await ledgerRow(url)).toMatchObject({ limit: 50, headerRemaining: 40, headerSeq: 1 });

    one.quota.block(60_000);
    await one.quota.idle();
    expect(await two.quota.acquire('interactive')).toMatchObject({
      ok: false,
      reason: 'the Risk API asked us to wait (its hourly limit for this key is reached)',
    });
  });

  it('keeps the limit another replica learnt: a replica that never saw it takes the ledger’s', async () => {
    const url = await migratedPostgresDatabase();
    const [one, two] = [ledgerOn(url), ledgerOn(url)];
    const grant = await one.quota.acquire('interactive');
    if (!grant.ok) throw new Error('the first grant was refused');
    one.quota.recordHeaders(40, 39, grant.seq);
    await one.quota.idle();
    await two.quota.refresh();
    expect(two.quota.mirror.limit()).toBe(40);
  });

  it('keeps a limit learnt while the ledger was away, ties no remaining count to the outage’s grants, and books those grants when back', async () => {
    const url = await migratedPostgresDatabase();
    const one = ledgerOn(url);
    for (let i = 0; i < 2; i++) await one.quota.acquire('interactive');
    one.quota.recordHeaders(null, 48, 2);
    await one.quota.idle();

    one.pool.down = true;
    const outage = await one.quota.acquire('interactive');
    expect(outage).toEqual({ ok: true, seq: -1 });
    await one.quota.acquire('interactive');
    await one.quota.acquire('interactive');
    one.quota.recordHeaders(40, 3, -1);
    expect(one.quota.mirror.limit()).toBe(40);
    // The answer's count cannot be placed among the shared sequence: the last one tied stays.
    expect(one.quota.mirror.snapshot()).toMatchObject({ headerRemaining: 48, headerSeq: 2 });

    one.pool.down = false;
    await one.quota.refresh();
    expect(one.quota.mirror.limit()).toBe(40);
    // The three sends of the outage follow the two the ledger had, after the last header.
    expect(await ledgerRow(url)).toMatchObject({ limit: 40, seq: 5, sentSinceHeader: 3 });
    expect(((await ledgerRow(url)).sent as number[]).length).toBe(5);
    expect(await ledgerOn(url).quota.acquire('interactive')).toEqual({ ok: true, seq: 6 });
  });

  it('says once that the ledger is away (with the replicas it divides by) and once that it is back', async () => {
    const url = await migratedPostgresDatabase();
    const one = ledgerOn(url, 3);
    await one.quota.acquire('interactive');
    await one.quota.acquire('interactive');
    expect(one.logs).toEqual([]);
    expect(one.reports).toEqual([true, true]);

    one.pool.down = true;
    await one.quota.acquire('interactive');
    await one.quota.acquire('interactive');
    one.pool.down = false;
    await one.quota.acquire('interactive');
    await one.quota.acquire('interactive');
    expect(one.logs).toEqual([
      [
        'budget ledger unreachable: spending at most this replica’s share until it is back',
        { replicas: 3 },
      ],
      ['budget ledger reachable again', null],
    ]);
    expect(one.reports).toEqual([true, true, false, false, true, true]);
  });

  it('a header write that finds PostgreSQL gone starts the outage; one that finds the pool busy does not', async () => {
    const url = await migratedPostgresDatabase();
    const one = await ledgerOnOneConnection(url);
    await one.quota.acquire('interactive');
    const held = (await one.pool.connect()) as pg.PoolClient;
    one.quota.recordHeaders(50, 45, 1);
    await one.quota.idle();
    held.release();
    expect(one.quota.mode()).toBe('shared');
    expect(one.reports).not.toContain(false);

    one.pool.down = true;
    one.quota.recordHeaders(50, 44, 1);
    await one.quota.idle();
    expect(one.quota.mode()).toBe('fallback');
    expect(one.reports.at(-1)).toBe(false);
  });

  it('refuses a grant for a moment while its pool is busy, spending no outage share', async () => {
    const url = await migratedPostgresDatabase();
    const one = await ledgerOnOneConnection(url);
    const held = (await one.pool.connect()) as pg.PoolClient;
    const refused = await one.quota.acquire('interactive');
    held.release();
    expect(refused).toEqual({
      ok: false,
      retryAfterMs: 5_000,
      reason: 'every database connection of this server is busy; try again in a moment',
    });
    expect(one.quota.mode()).toBe('shared');
    expect(one.reports).not.toContain(false);
    // The next grant is the ledger's first: nothing was spent on the side.
    expect(await one.quota.acquire('interactive')).toEqual({ ok: true, seq: 1 });
  });

  it('books a miss’s grant and its answer’s headers on the one connection the miss holds', async () => {
    const url = await migratedPostgresDatabase();
    const one = await ledgerOnOneConnection(url);
    const client = (await one.pool.connect()) as pg.PoolClient;
    try {
      const grant = await one.connections.hold(client, async () => {
        const granted = await one.quota.acquire('interactive');
        if (granted.ok) one.quota.recordHeaders(50, 40, granted.seq);
        return granted;
      });
      expect(grant).toEqual({ ok: true, seq: 1 });
      // Booked before the miss let go of its connection, which it never had to share.
      expect(await ledgerRow(url)).toMatchObject({ seq: 1, headerSeq: 1, headerRemaining: 40 });
    } finally {
      client.release();
    }
  });

  it('a heartbeat only reads the ledger: it does not wait behind a replica booking a grant', async () => {
    const url = await migratedPostgresDatabase();
    const one = ledgerOn(url);
    await one.quota.acquire('interactive');
    const booking = new pg.Client({ connectionString: url });
    await booking.connect();
    try {
      // Another replica in the middle of a booking: the ledger's row is locked until it commits.
      await booking.query('begin');
      await booking.query('select state from quota_ledger where id = 1 for update');
      const other = ledgerOn(url);
      await other.quota.refresh();
      expect(other.quota.mirror.usedLast60Min()).toBe(1);
    } finally {
      await booking.query('rollback');
      await booking.end();
    }
  });
});
