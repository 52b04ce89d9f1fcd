import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { startDemoUpstream, type DemoUpstream } from '../../src/demo-upstream/server.js';
import { buildApp } from '../../src/server/app.js';
import { Secret } from '../../src/server/secret.js';
import { HistoryStore } from '../../src/server/store/history-store.js';
import type { StatusResponse } from '../../src/shared/bff-api.js';
import { TestClock } from '../helpers/clock.js';
import { freshPostgresDatabase } from '../helpers/history-store.js';
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

describe('replicas on a pool of two connections', () => {
  let demo: DemoUpstream | null = null;
  let variant: VariantUpstream | null = null;
  let apps: FastifyInstance[] = [];
  afterEach(async () => {
    await Promise.all(apps.map((app) => app.close()));
    apps = [];
    await variant?.close();
    await demo?.close();
    variant = demo = null;
  });

  it('serves eight distinct misses at once on each replica without declaring PostgreSQL unreachable, spending and booking one request per miss', async () => {
    const url = await freshPostgresDatabase();
    await (
      await HistoryStore.open({ dataDir: null, databaseUrl: new Secret(url), retentionDays: null })
    ).close();
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
            cluster: { replicaName: name, leaseSeconds: 3, poolMax: 2 },
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
      apps.flatMap((app, r) =>
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
    for (const app of apps) {
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
