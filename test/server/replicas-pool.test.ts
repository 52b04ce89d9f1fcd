import { createServer, type AddressInfo, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { startDemoUpstream, type DemoUpstream } from '../../src/demo-upstream/server.js';
import { buildApp, type Bff } from '../../src/server/compose/app.js';
import { Membership } from '../../src/server/replicas/membership.js';
import { Secret } from '../../src/server/secret.js';
import { updateLedger } from '../../src/server/store/quota-ledger.js';
import { withAnswerLock } from '../../src/server/store/shared-answers.js';
import {
  isPoolBusy,
  isStoreUnreachable,
  type Database,
} from '../../src/server/store/connection.js';
import type { StatusResponse } from '../../src/shared/bff-api.js';
import { TestClock } from '../helpers/clock.js';
import { migratedPostgresDatabase } from '../helpers/history-store.js';
import { ManualScheduler } from '../helpers/manual-scheduler.js';
import { testConfig } from '../helpers/test-config.js';
import { startVariantUpstream, type VariantUpstream } from '../helpers/variant-upstream.js';

/*
 * Replicas on the smallest pool (DATABASE_POOL_MAX=2): a cache miss needs one pooled connection
 * at a time, so misses queue for connections instead of waiting on each other, and a busy pool
 * is never taken for PostgreSQL being down (issue 18, point 7).
 */

const COUNTRIES = ['BRA', 'DEU', 'FRA', 'IND', 'JPN', 'NGA', 'UKR', 'USA'];

/** Every log line of a replica, parsed (what an operator would read). */
function recordingLogger(lines: Array<{ msg?: string }>) {
  return pino(
    { level: 'info' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n')) {
          if (line) lines.push(JSON.parse(line) as { msg?: string });
        }
        done();
      },
    }),
  );
}

const quiet = pino({ level: 'silent' });

describe('replicas on a pool of two connections', () => {
  let demo: DemoUpstream | null = null;
  let variant: VariantUpstream | null = null;
  let apps: Bff[] = [];
  afterEach(async () => {
    await Promise.all(apps.map(({ app }) => app.close()));
    apps = [];
    await variant?.close();
    await demo?.close();
    variant = demo = null;
  });

  it('serves eight distinct misses at once on each replica without declaring PostgreSQL unreachable, spending and booking one request per miss', async () => {
    const url = await migratedPostgresDatabase();
    const clock = new TestClock(Date.UTC(2026, 10, 23, 8, 1));
    // Each answer takes a moment, so every miss holds its connection while others wait for one.
    demo = await startDemoUpstream({
      host: '127.0.0.1',
      port: 0,
      now: clock.now,
      faults: { latencyMs: 100 },
    });
    // A JSON export without countries: each country is its own upstream request.
    variant = await startVariantUpstream(demo.url);
    const key = new Secret(demo.issueKey('Pro'));
    const logs: Array<Array<{ msg?: string }>> = [[], []];
    apps = await Promise.all(
      ['r1', 'r2'].map((name, i) =>
        buildApp(
          testConfig({
            history: { databaseUrl: new Secret(url), retentionDays: null },
            replicas: { replicaName: name, leaseSeconds: 3, poolMax: 2 },
          }),
          {
            upstream: { mode: 'live', baseUrl: variant!.url, apiKey: key },
            now: clock.now,
            logger: recordingLogger(logs[i]!),
            scheduler: new ManualScheduler(clock.now),
          },
        ),
      ),
    );
    await Promise.all(apps.map((app) => app.historyIdle()));
    await Promise.all(apps.map((app) => app.upstreamIdle()));
    const before = demo.requestLog().length;

    // Both replicas miss the same eight countries at once, each asked by its own client.
    const answers = await Promise.all(
      apps.flatMap(({ app }, r) =>
        COUNTRIES.map((iso, i) =>
          app.inject({
            method: 'GET',
            url: `/api/v1/country/${iso}`,
            remoteAddress: `10.0.${r}.${i + 1}`,
          }),
        ),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 200));
    expect(answers.map((a) => (a.json() as { country: { iso: string } }).country.iso)).toEqual([
      ...COUNTRIES,
      ...COUNTRIES,
    ]);

    // One upstream request per distinct miss: none twice, none from an outage share.
    const sent = demo.requestLog().slice(before);
    expect(sent.map((e) => e.path).sort()).toEqual(
      COUNTRIES.map((iso) => `/api/v1/country/${iso}`),
    );

    // Every replica still says PostgreSQL is reachable and the budget is the shared one …
    for (const { app } of apps) {
      const status = (
        await app.inject({ method: 'GET', url: '/api/status' })
      ).json<StatusResponse>();
      expect(status.cluster).toMatchObject({ store: 'ok', store_error: null, ledger: 'shared' });
      const metrics = (await app.inject({ method: 'GET', url: '/metrics' })).body;
      expect(metrics).toMatch(/^grd_cluster_store_up 1$/m);
    }
    // … and never said otherwise.
    const alarms = logs
      .flat()
      .map((line) => line.msg ?? '')
      .filter((msg) => /unreachable/i.test(msg));
    expect(alarms).toEqual([]);

    // The ledger in PostgreSQL holds every request the upstream saw.
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    try {
      const { rows } = await pool.query<{ n: number }>(
        "select jsonb_array_length(state->'sent') as n from quota_ledger where id = 1",
      );
      expect(rows[0]?.n).toBe(demo.requestLog().length);
    } finally {
      await pool.end();
    }
  });
});

describe('a busy pool is not PostgreSQL down', () => {
  // The ledger's side of a busy pool (a grant refused for a moment, a miss's bookings on its own
  // connection): shared-quota.test.ts.
  const pools: pg.Pool[] = [];
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await Promise.all(pools.splice(0).map((pool) => pool.end().catch(() => undefined)));
  });

  function poolOf(url: string, max: number): pg.Pool {
    const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 200 });
    pool.on('error', () => {});
    pools.push(pool);
    return pool;
  }

  /** The error a replica sees when every one of its pooled connections is in use. */
  async function busyError(url: string): Promise<unknown> {
    const pool = poolOf(url, 1);
    // The one connection is made without the 200 ms limit, which is for the wait below: a busy
    // machine took longer than that to open it, and the test failed before it had a busy pool.
    pool.options.connectionTimeoutMillis = 0;
    const held = await pool.connect();
    pool.options.connectionTimeoutMillis = 200;
    try {
      return await pool.connect().then(
        () => null,
        (error: unknown) => error,
      );
    } finally {
      held.release();
    }
  }

  it('tells a wait for this process’s own busy pool from a server that does not answer', async () => {
    const busy = await busyError(await migratedPostgresDatabase());
    expect(isPoolBusy(busy)).toBe(true);

    // A server that takes the connection and never answers it.
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    try {
      const { port } = silent.address() as AddressInfo;
      const down = await poolOf(`postgres://grd:pw@127.0.0.1:${port}/grd`, 1)
        .connect()
        .then(
          () => null,
          (error: unknown) => error,
        );
      expect(isStoreUnreachable(down)).toBe(true);
      expect(isPoolBusy(down)).toBe(false);
    } finally {
      for (const socket of sockets.splice(0)) socket.destroy();
      await new Promise((done) => silent.close(done));
    }
  });

  it('keeps the replica’s status on "reachable" when its pool is busy, not when the server is gone', async () => {
    const url = await migratedPostgresDatabase();
    const membership = new Membership({
      db: drizzle({ client: poolOf(url, 1) }) as unknown as Database,
      name: 'r1',
      leaseSeconds: 3,
      logger: quiet,
    });
    membership.reportStore(false, await busyError(url));
    expect(membership.status('shared')).toMatchObject({ store: 'ok', store_error: null });
    membership.reportStore(false, new Error('connect ECONNREFUSED 127.0.0.1:5432'));
    expect(membership.status('shared').store).toBe('unreachable');
  });
});

describe('the answer’s lock', () => {
  const pools: pg.Pool[] = [];
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((pool) => pool.end().catch(() => undefined)));
  });

  function poolOf(url: string, max: number): pg.Pool {
    const pool = new pg.Pool({ connectionString: url, max });
    pools.push(pool);
    return pool;
  }

  const tryLock = async (pool: pg.Pool, key: string): Promise<boolean> => {
    const { rows } = await pool.query<{ got: boolean }>(
      'select pg_try_advisory_lock(719042, hashtext($1)) as got',
      [key],
    );
    return rows[0]!.got;
  };

  it('books the ledger on the miss’s own connection, committed while the lock is still held, and lets go after', async () => {
    const url = await migratedPostgresDatabase();
    const replica = poolOf(url, 1);
    const other = poolOf(url, 1);
    const seenMeanwhile = await withAnswerLock(replica, 'country|FRA', 1_000, async (client) => {
      await updateLedger(client, () => ({ state: { booked: true }, result: null }));
      const { rows } = await other.query('select state from quota_ledger where id = 1');
      return { ledger: rows[0]?.state as unknown, lockFree: await tryLock(other, 'country|FRA') };
    });
    expect(seenMeanwhile).toEqual({ ledger: { booked: true }, lockFree: false });
    // Its one connection went back to the pool without the lock.
    expect(replica.totalCount).toBe(1);
    expect(await tryLock(other, 'country|FRA')).toBe(true);
  });

  it('gives up a wait that runs out as the server’s lock timeout: not an outage, the connection kept', async () => {
    const url = await migratedPostgresDatabase();
    const holder = poolOf(url, 1);
    expect(await tryLock(holder, 'country|DEU')).toBe(true);
    const replica = poolOf(url, 1);
    let ran = false;
    const error = await withAnswerLock(replica, 'country|DEU', 200, async () => {
      ran = true;
    }).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(ran).toBe(false);
    expect(error).toMatchObject({ code: '55P03' });
    expect(isStoreUnreachable(error)).toBe(false);
    expect({ total: replica.totalCount, idle: replica.idleCount }).toEqual({ total: 1, idle: 1 });
  });
});
