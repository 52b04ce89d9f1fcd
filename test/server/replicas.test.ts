import { drizzle } from 'drizzle-orm/node-postgres';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startDemoUpstream, type DemoUpstream } from '../../src/demo-upstream/server.js';
import { buildApp, type Bff } from '../../src/server/compose/app.js';
import { Secret } from '../../src/server/secret.js';
import { holdsLease } from '../../src/server/store/leadership.js';
import type { Database } from '../../src/server/store/connection.js';
import { rowsOf } from '../../src/server/store/connection.js';
import type { StatusResponse } from '../../src/shared/bff-api.js';
import { TestClock } from '../helpers/clock.js';
import { migratedPostgresDatabase } from '../helpers/history-store.js';
import { startPostgres } from '../helpers/postgres-server.js';
import { ManualScheduler } from '../helpers/manual-scheduler.js';
import { testConfig } from '../helpers/test-config.js';

/*
 * Replicas sharing one PostgreSQL (issue 9), in one test process: three real BFF apps on one
 * real PostgreSQL database and one demo upstream over HTTP. The multi-process tests behind nginx
 * (test/replicas) cover SIGKILL and a stopped PostgreSQL server.
 */

const quiet = pino({ level: 'silent' });
const BATCH_MS = 10 * 60_000;

interface Replica extends Bff {
  name: string;
}

describe('three BFF replicas on one PostgreSQL', () => {
  let demo: DemoUpstream | null = null;
  let replicas: Replica[] = [];
  afterEach(async () => {
    await Promise.all(replicas.map((r) => r.app.close()));
    replicas = [];
    await demo?.close();
    demo = null;
  });

  async function startReplicas(
    url: string,
    clock: TestClock,
    token: string | null = null,
    /** Null: the documented schedule (03:00 and 10:00 UTC). */
    batchIntervalMs: number | null = BATCH_MS,
    missesPerMinute = 30,
  ): Promise<Replica[]> {
    demo = await startDemoUpstream({
      host: '127.0.0.1',
      port: 0,
      now: clock.now,
      ...(batchIntervalMs === null ? {} : { batchIntervalMs }),
    });
    const key = new Secret(demo.issueKey('Pro'));
    const baseUrl = demo.url;
    replicas = await Promise.all(
      ['r1', 'r2', 'r3'].map(async (name) => ({
        name,
        ...(await buildApp(
          testConfig({
            history: { databaseUrl: new Secret(url), retentionDays: null },
            replicas: { replicaName: name, leaseSeconds: 3, poolMax: 4 },
            access: {
              dashboardToken: token === null ? null : new Secret(token),
              trustedProxyAuthHeader: null,
              trustedProxyAddresses: [],
              allowedHosts: ['localhost', '127.0.0.1', '::1'],
              allowAnonymous: false,
            },
            data: { clientMissesPerMinute: missesPerMinute },
          }),
          {
            upstream: { mode: 'live', baseUrl, apiKey: key },
            now: clock.now,
            logger: quiet,
            scheduler: new ManualScheduler(clock.now),
          },
        )),
      })),
    );
    return replicas;
  }

  async function status(replica: Replica): Promise<StatusResponse> {
    return (await replica.app.inject({ method: 'GET', url: '/api/status' })).json();
  }

  /** Polls until `check` holds (the replicas' news and heartbeats are asynchronous). */
  async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
    await vi.waitFor(
      async () => {
        if (!(await check())) throw new Error(`not yet: ${what}`);
      },
      { timeout: 10_000, interval: 50 },
    );
  }

  it('spends one upstream request per resource when all three miss the same one at once', async () => {
    const url = await migratedPostgresDatabase();
    const clock = new TestClock(Date.UTC(2026, 10, 23, 8, 1));
    await startReplicas(url, clock);
    await Promise.all(replicas.map((r) => r.historyIdle()));
    const before = demo!.requestLog().length;

    // Countries come from the export the leader's watch has fetched; hotspots with their events
    // are a resource nobody has asked for yet.
    const url2 = '/api/v1/hotspots?tier=high&include=events';
    const answers = await Promise.all(
      replicas.map((r) => r.app.inject({ method: 'GET', url: url2 })),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    const sent = demo!.requestLog().slice(before);
    // The unfiltered list and the filtered one (the data service fetches wide, serves narrow):
    // each asked once, not once per replica.
    const queries = sent.map((e) => `${e.path}?${e.query}`);
    expect(queries.length).toBeGreaterThan(0);
    expect(new Set(queries).size).toBe(queries.length);
  });

  it('has one leader, fenced: a lease taken over leaves the old leader nothing to claim', async () => {
    const url = await migratedPostgresDatabase();
    const clock = new TestClock(Date.UTC(2026, 10, 23, 8, 1));
    await startReplicas(url, clock);
    await eventually(async () => {
      const all = await Promise.all(replicas.map(status));
      return (
        all.filter((s) => s.cluster?.role === 'leader').length === 1 &&
        all.every((s) => s.cluster?.replicas_seen === 3)
      );
    }, 'one leader, three replicas seen');
    const statuses = await Promise.all(replicas.map(status));
    const metrics = await Promise.all(
      replicas.map(async (r) => (await r.app.inject({ method: 'GET', url: '/metrics' })).body),
    );
    expect(metrics.filter((m) => /^grd_cluster_leader 1$/m.test(m))).toHaveLength(1);
    expect(metrics.every((m) => /^grd_cluster_store_up 1$/m.test(m))).toBe(true);
    const leaderIndex = statuses.findIndex((s) => s.cluster?.role === 'leader');
    expect(new Set(statuses.map((s) => s.cluster?.leader))).toEqual(
      new Set([replicas[leaderIndex]!.name]),
    );

    // The leader stalls (its lease runs out in the database) and another replica takes over.
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    try {
      const db = drizzle({ client: pool }) as unknown as Database;
      const [before] = rowsOf(await db.execute(sql`select holder, fence from leader_lease`));
      await db.execute(sql`update leader_lease set expires_at = now() - interval '1 second'`);
      await eventually(async () => {
        const [row] = rowsOf(await db.execute(sql`select fence from leader_lease`));
        return Number(row?.fence) === Number(before?.fence) + 1;
      }, 'the lease changing hands');
      const [stillOld] = rowsOf(
        await db.execute(
          sql`select ${holdsLease(String(before?.holder), Number(before?.fence))} as holds`,
        ),
      );
      expect(stillOld?.holds).toBe(false);
      await eventually(async () => {
        const roles = await Promise.all(replicas.map(status));
        return roles.filter((s) => s.cluster?.role === 'leader').length === 1;
      }, 'exactly one leader again');
    } finally {
      await pool.end();
    }

    // A leader that closes hands the lease over at once.
    const statusesNow = await Promise.all(replicas.map(status));
    const current = replicas[statusesNow.findIndex((s) => s.cluster?.role === 'leader')]!;
    await current.app.close();
    replicas = replicas.filter((r) => r !== current);
    await eventually(async () => {
      const roles = await Promise.all(replicas.map(status));
      return roles.some((s) => s.cluster?.role === 'leader');
    }, 'a new leader after the old one closed');
  });

  it('tells the others of a new batch: their status agrees and the batch is recorded once', async () => {
    const url = await migratedPostgresDatabase();
    const clock = new TestClock(Date.UTC(2026, 10, 23, 8, 1));
    await startReplicas(url, clock);
    await Promise.all(replicas.map((r) => r.app.inject({ method: 'GET', url: '/api/status' })));
    const first = await replicas[0]!.app.inject({ method: 'GET', url: '/api/v1/hotspots' });
    const firstAsOf = first.json().as_of as string;

    clock.advance(BATCH_MS);
    // One replica's page asks again after the batch: its answer shows the new as_of.
    const fresh = await replicas[1]!.app.inject({
      method: 'GET',
      url: '/api/v1/hotspots?tier=crit',
    });
    const newAsOf = fresh.json().as_of as string;
    expect(newAsOf > firstAsOf).toBe(true);
    await eventually(async () => {
      const all = await Promise.all(replicas.map(status));
      return all.every((s) => s.as_of === newAsOf && s.history?.latest === newAsOf);
    }, 'every replica reporting the new batch, recorded');

    const pool = new pg.Pool({ connectionString: url, max: 1 });
    try {
      const { rows } = await pool.query('select count(*)::int as n from batches where as_of = $1', [
        newAsOf,
      ]);
      expect(rows[0].n).toBe(1);
    } finally {
      await pool.end();
    }
  });

  it('signs a browser in on every replica at once, and out of every replica at once', async () => {
    const token = 'a-dashboard-token-of-forty-characters-xx';
    const url = await migratedPostgresDatabase();
    await startReplicas(url, new TestClock(Date.UTC(2026, 10, 23, 8, 1)), token);
    const [r1, r2, r3] = replicas as [Replica, Replica, Replica];
    const signedIn = await r1.app.inject({
      method: 'POST',
      url: '/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ token }).toString(),
    });
    expect(signedIn.statusCode).toBe(303);
    const cookie = String(signedIn.headers['set-cookie']).split(';')[0] ?? '';
    const statusWith = (r: Replica) =>
      r.app.inject({ method: 'GET', url: '/api/status', headers: { cookie } });
    expect((await statusWith(r2)).statusCode).toBe(200);
    expect((await statusWith(r3)).statusCode).toBe(200);
    // The session table holds a hash, never the cookie's value.
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    try {
      const { rows } = await pool.query('select id_hash from sessions');
      expect(rows).toHaveLength(1);
      expect(cookie).not.toContain(rows[0].id_hash);
    } finally {
      await pool.end();
    }

    const signedOut = await r2.app.inject({
      method: 'POST',
      url: '/logout',
      headers: { cookie },
    });
    expect(signedOut.statusCode).toBe(303);
    // r1 and r3 had it remembered as valid: the sign-out reaches them as news.
    await eventually(async () => {
      const codes = await Promise.all([r1, r3].map(async (r) => (await statusWith(r)).statusCode));
      return codes.every((code) => code === 401);
    }, 'the session refused by every replica');
  });

  it('takes an answer another replica fetched long ago when its batch is still the newest', async () => {
    const url = await migratedPostgresDatabase();
    // The documented schedule (03:00 and 10:00 UTC): no batch between 08:01 and 08:41.
    const clock = new TestClock(Date.UTC(2026, 10, 23, 8, 1));
    await startReplicas(url, clock, null, null);
    await Promise.all(replicas.map((r) => r.historyIdle()));
    const [r1, r2] = replicas as [Replica, Replica];
    const path = '/api/v1/hotspots?tier=high&include=events';
    expect((await r1.app.inject({ method: 'GET', url: path })).statusCode).toBe(200);

    clock.advance(40 * 60_000);
    // r2's page confirms the batch (one probe: its last check is 40 minutes old) …
    expect((await r2.app.inject({ method: 'GET', url: '/api/v1/hotspots' })).statusCode).toBe(200);
    await r2.upstreamIdle();
    expect(demo!.requestLog().at(-1)?.query).toBe('limit=50');
    const before = demo!.requestLog().length;
    // … and r1's answer of that same batch is then as good as a new one.
    const answer = await r2.app.inject({ method: 'GET', url: path });
    expect(answer.statusCode).toBe(200);
    expect(demo!.requestLog().slice(before)).toEqual([]);
  });

  it('with its PostgreSQL server gone keeps serving what it holds and says so', async () => {
    // A server of its own: this test stops it.
    const server = await startPostgres();
    try {
      const clock = new TestClock(Date.UTC(2026, 10, 23, 8, 1));
      await startReplicas(server.url, clock);
      const [r1] = replicas as [Replica];
      await r1.historyIdle();
      expect((await r1.app.inject({ method: 'GET', url: '/api/v1/hotspots' })).statusCode).toBe(
        200,
      );
      await server.stop();

      const hotspots = await r1.app.inject({ method: 'GET', url: '/api/v1/hotspots' });
      expect(hotspots.statusCode).toBe(200);
      expect((await r1.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      const history = await r1.app.inject({ method: 'GET', url: '/api/history/global' });
      expect(history.statusCode).toBe(503);
      expect(history.json()).toEqual({
        ok: false,
        error:
          'The history store (PostgreSQL) cannot be reached right now; current data is still served. Try again in a minute.',
        retry_after_seconds: 30,
      });
      expect(history.headers['retry-after']).toBe('30');
      await eventually(async () => {
        const cluster = (await status(r1)).cluster;
        return cluster?.store === 'unreachable' && cluster.ledger === 'fallback';
      }, 'status saying the store is unreachable and the budget on this replica’s share');
    } finally {
      await server.stop();
    }
  });

  it('counts one client’s misses across replicas: spreading them over replicas earns no more', async () => {
    const url = await migratedPostgresDatabase();
    await startReplicas(url, new TestClock(Date.UTC(2026, 10, 23, 8, 1)), null, BATCH_MS, 2);
    await Promise.all(replicas.map((r) => r.historyIdle()));
    const [r1, r2, r3] = replicas as [Replica, Replica, Replica];
    const ask = (r: Replica, path: string) =>
      r.app.inject({ method: 'GET', url: path, remoteAddress: '10.0.0.9' });
    // Three resources nobody has fetched yet, one per replica, from one client allowed 2 a minute.
    expect((await ask(r1, '/api/v1/hotspots?include=categories')).statusCode).toBe(200);
    expect((await ask(r2, '/api/v1/hotspots?include=events')).statusCode).toBe(200);
    const third = await ask(r3, '/api/v1/export?format=csv');
    expect(third.statusCode).toBe(429);
    expect(third.json().error).toMatch(/Too many requests for data that is not cached yet/);
    // Another client is not held back by it.
    const other = await r3.app.inject({
      method: 'GET',
      url: '/api/v1/export?format=csv',
      remoteAddress: '10.0.0.10',
    });
    expect(other.statusCode).toBe(200);
  });
});
