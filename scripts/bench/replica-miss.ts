import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { startDemoUpstream } from '../../src/demo-upstream/server.js';
import { buildApp } from '../../src/server/compose/app.js';
import { Secret } from '../../src/server/secret.js';
import { startPostgres } from '../../test/helpers/postgres-server.js';
import { testConfig } from '../../test/helpers/test-config.js';

export interface ReplicaMissResult {
  samples: number;
  /** Median ms of a miss a replica answers from another replica's fetch (read from PostgreSQL). */
  adoptedMs: number;
  /** Median ms of a miss that asks the upstream (demo upstream on loopback, no DATABASE_URL). */
  upstreamMs: number;
  /** Median ms of a hit (the same request again, from memory). */
  hitMs: number;
  /** Medians per resource: [adopted, upstream, hit]. */
  byUrl: Record<string, [number, number, number]>;
}

/** The resources the BFF asks the upstream for (tier filters are served from the wide list). */
const URLS = [
  '/api/v1/hotspots',
  '/api/v1/hotspots?include=categories',
  '/api/v1/hotspots?include=events',
  '/api/v1/export?format=csv',
  '/api/v1/export?format=json',
];
const ROUNDS = 8;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

async function time(app: FastifyInstance, url: string): Promise<number> {
  const started = performance.now();
  const res = await app.inject({ method: 'GET', url });
  const ms = performance.now() - started;
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode}`);
  return ms;
}

/**
 * What a miss costs a replica when another replica already fetched the answer, beside a miss
 * that asks the upstream and a hit; driven by inject so only the server's own time counts. A
 * first replica fetches every resource the BFF takes from the upstream; then, each round, a new
 * replica (empty memory, same PostgreSQL) asks for each of them (taken from PostgreSQL) and
 * again (a hit). For comparison, each round a new BFF without DATABASE_URL asks for each (from
 * the demo upstream over loopback HTTP).
 */
export async function runReplicaMissBench(): Promise<ReplicaMissResult> {
  const server = await startPostgres();
  const demo = await startDemoUpstream({ host: '127.0.0.1', port: 0 });
  const key = new Secret(demo.issueKey('Custom', { limit: 100_000 }));
  const quiet = pino({ level: 'silent' });
  const generous = { data: { clientMissesPerMinute: 10_000, clientBudgetSharePercent: 100 } };
  const start = async (name: string | null): Promise<FastifyInstance> =>
    (
      await buildApp(
        testConfig({
          ...generous,
          ...(name === null
            ? {}
            : {
                history: { databaseUrl: new Secret(server.url), retentionDays: null },
                replicas: { replicaName: name, leaseSeconds: 15, poolMax: 10 },
              }),
        }),
        { upstream: { mode: 'live', baseUrl: demo.url, apiKey: key }, logger: quiet },
      )
    ).app;
  const first = await start('first');
  const adopted: number[] = [];
  const upstream: number[] = [];
  const hits: number[] = [];
  try {
    for (const url of URLS) await time(first, url);
    for (let round = 0; round < ROUNDS; round++) {
      const replica = await start(`replica-${round}`);
      const alone = await start(null);
      try {
        for (const url of URLS) {
          adopted.push(await time(replica, url));
          hits.push(await time(replica, url));
          upstream.push(await time(alone, url));
        }
      } finally {
        await replica.close();
        await alone.close();
      }
    }
    const byUrl: ReplicaMissResult['byUrl'] = {};
    URLS.forEach((url, i) => {
      const of = (all: number[]) => median(all.filter((_, j) => j % URLS.length === i));
      byUrl[url] = [of(adopted), of(upstream), of(hits)];
    });
    return {
      byUrl,
      samples: adopted.length,
      adoptedMs: median(adopted),
      upstreamMs: median(upstream),
      hitMs: median(hits),
    };
  } finally {
    await first.close();
    await demo.close();
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await runReplicaMissBench();
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
