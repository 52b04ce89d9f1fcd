import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type PostgresServer } from '../helpers/postgres-server.js';
import { startReplicaCluster, waitUntil, type ReplicaCluster } from '../helpers/replica-cluster.js';

/*
 * Three replicas of the built app started together against an empty database, behind nginx.
 * They must all come up (one applies the migrations, the others wait for it), name themselves
 * and each other in /api/status, and spend one upstream request between them when all three are
 * asked for the same uncached country at the same moment.
 */
let postgres: PostgresServer;
let cluster: ReplicaCluster;

beforeAll(async () => {
  postgres = await startPostgres();
  cluster = await startReplicaCluster({ replicas: 3, postgres });
});
afterAll(async () => {
  await cluster?.close();
  await postgres?.stop();
});

describe('three replicas on one database', () => {
  it('start together against an empty database and all become ready', async () => {
    for (const replica of cluster.replicas) {
      await waitUntil(
        `${replica.name} /readyz 200`,
        async () => (await fetch(`${replica.url}/readyz`)).status === 200,
        30_000,
        cluster.diagnostics,
      );
    }
    const statuses = await cluster.statuses();
    expect(statuses.map((s) => s.cluster?.replica).sort()).toEqual(['r1', 'r2', 'r3']);
    expect(statuses.every((s) => s.cluster?.store === 'ok')).toBe(true);
    // One leader, and every replica names the same one.
    const leader = await cluster.leader();
    await waitUntil(
      'every replica to name the leader and see 3 replicas',
      async () =>
        (await cluster.statuses()).every(
          (s) => s.cluster?.leader === leader.name && s.cluster.replicas_seen === 3,
        ),
      30_000,
      cluster.diagnostics,
    );
    // The migrations ran once: one row per migration in drizzle's journal.
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: cluster.databaseUrl ?? undefined });
    await client.connect();
    try {
      const applied = await client.query<{ hash: string }>(
        'SELECT hash FROM drizzle.__drizzle_migrations',
      );
      const hashes = applied.rows.map((r) => r.hash);
      expect(hashes.length).toBeGreaterThan(0);
      expect(new Set(hashes).size).toBe(hashes.length);
    } finally {
      await client.end();
    }
  });

  it('nginx spreads requests over every replica', async () => {
    const answeredBy = new Set<string>();
    for (let i = 0; i < 9; i++) {
      const res = await fetch(`${cluster.url}/api/status`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { cluster?: { replica?: string } | null };
      answeredBy.add(String(body.cluster?.replica));
    }
    expect([...answeredBy].sort()).toEqual(['r1', 'r2', 'r3']);
  });

  it('3 replicas asked for the same uncached answer at the same moment: 1 upstream request', async () => {
    // Let start-up settle: the leader records the batch (the probe and the JSON export) and
    // every replica learns of it; nothing is in flight upstream after that.
    await waitUntil(
      'every replica to report the recorded batch in status.history',
      async () => {
        const statuses = await cluster.statuses();
        return statuses.every((s) => s.history?.latest && s.history.latest === s.as_of);
      },
      30_000,
      cluster.diagnostics,
    );
    // `include=events` is its own upstream request (never derived from another answer), and
    // nobody has asked for it yet.
    const path = '/api/v1/hotspots?include=events';
    const before = cluster.demo.requestCount();
    const answers = await Promise.all(cluster.replicas.map((r) => cluster.get(path, r)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const spent = cluster.demo.requestLog().slice(-(cluster.demo.requestCount() - before));
    expect(
      spent.map((e) => `${e.path}?${e.query}`),
      'upstream requests for the three answers',
    ).toEqual([expect.stringContaining('include=events')]);
    // A fourth ask, through nginx, is answered from what was fetched, wherever it lands.
    expect((await cluster.get(path)).status).toBe(200);
    expect(cluster.demo.requestCount()).toBe(before + 1);
  });

  it("a country one replica's fetch already holds costs the others no upstream request", async () => {
    // Country detail comes from the JSON export the leader fetched to record the batch: the
    // followers' first ask finds that body in the shared cache instead of fetching it again.
    const before = cluster.demo.requestCount();
    const answers = await Promise.all(
      cluster.replicas.map((replica) => cluster.get('/api/v1/country/FRA', replica)),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers.map((a) => (a.body as { country?: { iso?: string } }).country?.iso)).toEqual([
      'FRA',
      'FRA',
      'FRA',
    ]);
    expect(cluster.demo.requestCount(), 'upstream requests for the three answers').toBe(before);
  });
});
