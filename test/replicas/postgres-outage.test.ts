import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchRelease } from '../helpers/batch-release.js';
import { startPostgres, type PostgresServer } from '../helpers/postgres-server.js';
import {
  startReplicaCluster,
  waitUntil,
  type Replica,
  type ReplicaCluster,
} from '../helpers/replica-cluster.js';

/*
 * PostgreSQL goes away (a fast shutdown: every session cut) while replicas serve a team through
 * nginx, and comes back on the same port and data directory. The demo upstream's clock stands
 * still until the test releases the next batch, so "the batch seen during the outage" is one
 * known batch that no later one can stand in for. The replicas check every 10 s (FRESH_SECONDS;
 * 5 s in the short outage).
 *
 * A long outage (the leader steps down, nobody leads until PostgreSQL is back) and one shorter
 * than the lease (the leader keeps its term: its own batch watch must record the batch it could
 * not record meanwhile; a new term's fresh start would hide a watch that gives up).
 */
const BATCH_MS = 30_000;
const PRO_LIMIT = 50;
const PAGES = ['/api/v1/hotspots?limit=20', '/api/countries', '/api/v1/country/FRA'];
const LEADS = /"msg":"this replica now leads"/g;
const WATCH_FAILED = '"msg":"batch watch failed; trying again soon"';

let postgres: PostgresServer;
/** Set while the test holds PostgreSQL down: a failed test leaves it running for the next. */
let paused = false;

beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(async () => {
  await postgres?.stop();
});

async function pausePostgres(): Promise<void> {
  paused = true;
  await postgres.pause();
}

async function resumePostgres(): Promise<void> {
  await postgres.resume();
  paused = false;
}

async function closeCluster(cluster: ReplicaCluster | undefined): Promise<void> {
  await cluster?.close();
  if (paused) await resumePostgres();
}

/** The newest batch every running replica has recorded, once they all agree on it. */
async function recordedByAll(cluster: ReplicaCluster): Promise<string> {
  const statuses = await cluster.statuses();
  const latest = statuses[0]?.history?.latest ?? '';
  return statuses.every((s) => s.history?.latest === latest) ? latest : '';
}

/** Each batch once in the global history; the as_of values it holds. */
async function globalHistory(cluster: ReplicaCluster): Promise<string[]> {
  const history = (await cluster.get('/api/history/global')).body as {
    points: Array<{ as_of: string }>;
  };
  const asOfs = history.points.map((p) => p.as_of);
  expect(new Set(asOfs).size, 'each batch once in the history').toBe(asOfs.length);
  return asOfs;
}

/**
 * Replicas on the shared PostgreSQL for one describe block, started before its tests and closed
 * after them; the demo upstream's clock stands still until `release` moves it.
 */
function outageCluster(replicas: number, env: Record<string, string>) {
  const release = batchRelease(BATCH_MS);
  let cluster: ReplicaCluster | undefined;
  beforeAll(async () => {
    cluster = await startReplicaCluster({
      replicas,
      postgres,
      demo: { batchIntervalMs: BATCH_MS, now: release.now },
      env,
    });
  });
  afterAll(() => closeCluster(cluster));
  return {
    release,
    cluster(): ReplicaCluster {
      if (!cluster) throw new Error('the cluster starts in beforeAll');
      return cluster;
    },
  };
}

/** Waits until every replica has recorded the first batch; that batch's as_of. */
async function firstBatchRecorded(cluster: ReplicaCluster): Promise<string> {
  let first = '';
  await waitUntil(
    'the first batch recorded and known to every replica',
    async () => (first = await recordedByAll(cluster)) !== '',
    30_000,
    cluster.diagnostics,
  );
  return first;
}

function termsLed(replica: Replica): number {
  return replica.output().match(LEADS)?.length ?? 0;
}

describe('PostgreSQL stopped for longer than the lease', () => {
  const setup = outageCluster(3, { FRESH_SECONDS: '10', LEADER_LEASE_SECONDS: '5' });
  const { release } = setup;

  it('answers keep coming, writes are refused, shares are kept, and the batch seen meanwhile is recorded afterwards', async () => {
    const cluster = setup.cluster();
    const { diagnostics } = cluster;
    await cluster.leader();
    const first = await firstBatchRecorded(cluster);
    // What a team opens: every replica holds it once asked (directly, so each one is asked).
    for (const replica of cluster.replicas) {
      for (const page of PAGES) expect((await cluster.get(page, replica)).status).toBe(200);
    }
    const sentBefore = cluster.demo.requestLog().length;

    await pausePostgres();
    await waitUntil(
      'every replica to report the store unreachable',
      async () => (await cluster.statuses()).every((s) => s.cluster?.store === 'unreachable'),
      30_000,
      diagnostics,
    );
    // Without the shared ledger each replica spends from its own share, and says so.
    await waitUntil(
      'every replica on its outage share',
      async () => (await cluster.statuses()).every((s) => s.cluster?.ledger === 'fallback'),
      10_000,
      diagnostics,
    );
    // Users keep getting answers through nginx, and the orchestrator keeps every replica.
    for (let round = 0; round < 3; round++) {
      for (const page of PAGES) {
        expect((await cluster.get(page)).status, `${page} during the outage`).toBe(200);
      }
    }
    // A write needs the database: refused with 503 and a plain error, never acknowledged.
    const write = await fetch(`${cluster.url}/api/watchlists`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Written during the outage', countries: ['FRA'] }),
    });
    const refusal = (await write.json()) as { ok: boolean; error?: unknown };
    expect(write.status, JSON.stringify(refusal)).toBe(503);
    expect(refusal.ok).toBe(false);
    expect(refusal.error).toMatch(/\w+ \w+/);
    for (const replica of cluster.replicas) {
      expect((await fetch(`${replica.url}/readyz`)).status, `${replica.name} /readyz`).toBe(200);
      expect((await fetch(`${replica.url}/healthz`)).status, `${replica.name} /healthz`).toBe(200);
    }
    // Nobody leads while the lease cannot be renewed.
    await waitUntil(
      'every replica to follow',
      async () => (await cluster.statuses()).every((s) => s.cluster?.role === 'follower'),
      15_000,
      diagnostics,
    );

    // A new batch comes out while the database is away, and people keep opening pages (a page
    // past its freshness makes its replica check for a newer batch): the replicas notice it,
    // fetch it from the upstream on their shares, and every answer meanwhile is a 200.
    release.next();
    let seen = '';
    const answersMeanwhile: string[] = [];
    await waitUntil(
      'every replica to see the batch released during the outage',
      async () => {
        for (const replica of cluster.replicas) {
          for (const page of PAGES) {
            answersMeanwhile.push(`${(await cluster.get(page, replica)).status} ${page}`);
          }
        }
        const asOfs = new Set((await cluster.statuses()).map((s) => s.as_of ?? ''));
        seen = asOfs.size === 1 ? [...asOfs][0]! : '';
        return seen > first;
      },
      2 * BATCH_MS,
      diagnostics,
    );
    expect(answersMeanwhile.filter((answer) => !answer.startsWith('200 '))).toEqual([]);
    // Each replica's share is (limit − sent before) ÷ 3, rounded down; together within it.
    const sentMeanwhile = cluster.demo.requestLog().length - sentBefore;
    expect(sentMeanwhile, 'upstream requests while PostgreSQL was down').toBeGreaterThan(0);
    expect(sentMeanwhile).toBeLessThanOrEqual(3 * Math.floor((PRO_LIMIT - sentBefore) / 3));

    await resumePostgres();
    await waitUntil(
      'every replica back on the shared store and ledger',
      async () =>
        (await cluster.statuses()).every(
          (s) => s.cluster?.store === 'ok' && s.cluster.ledger === 'shared',
        ),
      30_000,
      diagnostics,
    );
    // Nothing seen is lost: the very batch seen meanwhile is recorded, once, and every replica
    // agrees on it (the demo's clock stands still: no later batch can take its place).
    await waitUntil(
      `the batch seen during the outage (${seen}) recorded and known to every replica`,
      async () => (await recordedByAll(cluster)) === seen,
      2 * BATCH_MS,
      diagnostics,
    );
    const asOfs = await globalHistory(cluster);
    expect(asOfs).toContain(first);
    expect(asOfs).toContain(seen);
    const lists = (await cluster.get('/api/watchlists')).body as {
      watchlists: Array<{ name: string }>;
    };
    expect(lists.watchlists.map((w) => w.name)).not.toContain('Written during the outage');

    // What the replicas spent meanwhile is booked in the shared ledger once it is back: every
    // replica's count of the hour is what the upstream received.
    await waitUntil(
      'the outage sends booked in the shared ledger',
      async () => {
        const sent = cluster.demo.requestLog().length;
        return (await cluster.statuses()).every((s) => s.quota.used_last_60min === sent);
      },
      15_000,
      () =>
        `sent ${cluster.demo.requestLog().length}\n` +
        `${JSON.stringify(cluster.demo.requestLog().slice(-5))}\n${diagnostics()}`,
    );
    // The key's hour: well inside it, never refused.
    const log = cluster.demo.requestLog();
    expect(log.filter((e) => e.status === 429)).toEqual([]);
    expect(log.length).toBeLessThanOrEqual(PRO_LIMIT);
    for (const page of PAGES) expect((await cluster.get(page)).status).toBe(200);
  }, 240_000);
});

describe('PostgreSQL gone for less than the lease', () => {
  // A lease of 60 s: the leader steps down only after 36 s without renewing it.
  const setup = outageCluster(2, { FRESH_SECONDS: '5', LEADER_LEASE_SECONDS: '60' });
  const { release } = setup;

  it('the leader keeps its term, and its batch watch records the batch it could not record meanwhile', async () => {
    const cluster = setup.cluster();
    const { diagnostics } = cluster;
    const leader = await cluster.leader();
    const first = await firstBatchRecorded(cluster);
    expect(termsLed(leader)).toBe(1);
    const failuresBefore = leader.output().split(WATCH_FAILED).length;

    await pausePostgres();
    release.next();
    // The leader is asked for a page (past its 5 s of freshness it looks for a newer batch):
    // it sees the new batch and tries to record it, in vain, well within the 16 s the outage
    // may last before the leader could step down (36 s after a renewal, renewed every 20 s).
    let seen = '';
    await waitUntil(
      'the leader to see the new batch and fail to record it',
      async () => {
        expect((await cluster.get(PAGES[0]!, leader)).status).toBe(200);
        seen = (await cluster.status(leader)).as_of ?? '';
        return seen > first && leader.output().split(WATCH_FAILED).length > failuresBefore;
      },
      15_000,
      diagnostics,
    );
    await resumePostgres();

    // Its batch watch tries again on its own: the batch is recorded in this same term.
    await waitUntil(
      `the batch seen during the outage (${seen}) recorded and known to every replica`,
      async () => (await recordedByAll(cluster)) === seen,
      45_000,
      diagnostics,
    );
    expect((await cluster.status(leader)).cluster?.role, 'the leader still leads').toBe('leader');
    expect(termsLed(leader), 'one term of leadership throughout').toBe(1);
    for (const other of cluster.replicas.filter((r) => r !== leader)) {
      expect(termsLed(other), `${other.name} never led`).toBe(0);
    }
    const asOfs = await globalHistory(cluster);
    expect(asOfs).toContain(first);
    expect(asOfs).toContain(seen);
  }, 180_000);
});
