import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type PostgresServer } from '../helpers/postgres-server.js';
import { startReplicaCluster, waitUntil, type ReplicaCluster } from '../helpers/replica-cluster.js';

/*
 * PostgreSQL goes away (a fast shutdown: every session cut) while 3 replicas serve a team through
 * nginx, and comes back on the same port and data directory. Meanwhile people keep getting the
 * data the replicas hold, /readyz stays 200, status says so, the Pro key's hour is not exceeded,
 * and afterwards every replica is back on the shared store with the newer batch recorded. The
 * demo upstream starts a batch every 30 s; the replicas check every 10 s (FRESH_SECONDS).
 */
const BATCH_MS = 30_000;
const PRO_LIMIT = 50;
let postgres: PostgresServer;
let cluster: ReplicaCluster;

beforeAll(async () => {
  postgres = await startPostgres();
  cluster = await startReplicaCluster({
    replicas: 3,
    postgres,
    demo: { batchIntervalMs: BATCH_MS },
    env: { FRESH_SECONDS: '10', LEADER_LEASE_SECONDS: '5' },
  });
});
afterAll(async () => {
  await cluster?.close();
  await postgres?.stop();
});

const PAGES = ['/api/v1/hotspots?limit=20', '/api/countries', '/api/v1/country/FRA'];

describe('PostgreSQL stopped for a while', () => {
  it('answers keep coming, the budget holds, and everything is consistent afterwards', async () => {
    const { diagnostics } = cluster;
    await cluster.leader();
    let first = '';
    await waitUntil(
      'the first batch recorded and known to every replica',
      async () => {
        const statuses = await cluster.statuses();
        first = statuses[0]?.history?.latest ?? '';
        return first !== '' && statuses.every((s) => s.history?.latest === first);
      },
      30_000,
      diagnostics,
    );
    // What a team opens: every replica holds it once asked (directly, so each one is asked).
    for (const replica of cluster.replicas) {
      for (const page of PAGES) expect((await cluster.get(page, replica)).status).toBe(200);
    }

    await postgres.pause();
    await waitUntil(
      'every replica to report the store unreachable',
      async () => (await cluster.statuses()).every((s) => s.cluster?.store === 'unreachable'),
      30_000,
      diagnostics,
    );
    // And that it spends from its share meanwhile (soft: the rest of the outage is still checked).
    expect
      .soft(
        (await cluster.statuses()).map((s) => `${s.cluster?.replica}: ${s.cluster?.ledger}`),
        'ledger of each replica while PostgreSQL is down',
      )
      .toEqual(['r1: fallback', 'r2: fallback', 'r3: fallback']);
    // Users keep getting answers through nginx, and the orchestrator keeps every replica.
    for (let round = 0; round < 3; round++) {
      for (const page of PAGES) {
        const answer = await cluster.get(page);
        expect(answer.status, `${page} during the outage`).toBe(200);
      }
    }
    // A write needs the database: refused with a plain error, not half-done or lost silently.
    const write = await fetch(`${cluster.url}/api/watchlists`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Written during the outage', countries: ['FRA'] }),
    });
    const refusal = (await write.json()) as { ok: boolean; error?: unknown };
    expect(write.status, JSON.stringify(refusal)).toBeGreaterThanOrEqual(500);
    expect(refusal.ok).toBe(false);
    expect(typeof refusal.error).toBe('string');
    for (const replica of cluster.replicas) {
      expect((await fetch(`${replica.url}/readyz`)).status, `${replica.name} /readyz`).toBe(200);
      expect((await fetch(`${replica.url}/healthz`)).status, `${replica.name} /healthz`).toBe(200);
    }
    // A new batch comes out while the database is away, and people keep opening pages (a page
    // past its freshness makes its replica check for a newer batch): the replicas notice it,
    // and every answer meanwhile is a 200.
    let seenDuringOutage = '';
    const answersMeanwhile: string[] = [];
    await waitUntil(
      'a replica to see a batch newer than the recorded one',
      async () => {
        for (const page of PAGES) {
          answersMeanwhile.push(`${(await cluster.get(page)).status} ${page}`);
        }
        const newest =
          (await cluster.statuses())
            .map((s) => s.as_of ?? '')
            .sort()
            .at(-1) ?? '';
        seenDuringOutage = newest > first ? newest : '';
        return seenDuringOutage !== '';
      },
      2 * BATCH_MS,
      diagnostics,
    );
    expect(answersMeanwhile.filter((answer) => !answer.startsWith('200 '))).toEqual([]);
    for (const page of PAGES) expect((await cluster.get(page)).status).toBe(200);

    await postgres.resume();
    await waitUntil(
      'every replica back on the shared store and ledger',
      async () =>
        (await cluster.statuses()).every(
          (s) => s.cluster?.store === 'ok' && s.cluster.ledger === 'shared',
        ),
      30_000,
      diagnostics,
    );
    // Nothing seen is lost: a batch at least as new as the one seen meanwhile gets recorded,
    // once, and every replica agrees on it.
    await waitUntil(
      `a batch at least as new as ${seenDuringOutage} recorded and known to every replica`,
      async () => {
        const statuses = await cluster.statuses();
        const latest = statuses[0]?.history?.latest ?? '';
        return latest >= seenDuringOutage && statuses.every((s) => s.history?.latest === latest);
      },
      2 * BATCH_MS,
      diagnostics,
    );
    const history = (await cluster.get('/api/history/global')).body as {
      points: Array<{ as_of: string }>;
    };
    const asOfs = history.points.map((p) => p.as_of);
    expect(new Set(asOfs).size, 'each batch once in the history').toBe(asOfs.length);
    expect(asOfs).toContain(first);
    const lists = (await cluster.get('/api/watchlists')).body as {
      watchlists: Array<{ name: string }>;
    };
    expect(lists.watchlists.map((w) => w.name)).not.toContain('Written during the outage');

    // The key's hour: well inside it, never refused.
    const log = cluster.demo.requestLog();
    expect(log.filter((e) => e.status === 429)).toEqual([]);
    expect(log.length).toBeLessThanOrEqual(PRO_LIMIT);
    for (const page of PAGES) expect((await cluster.get(page)).status).toBe(200);
  }, 240_000);
});
