import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { FastifyInstance } from 'fastify';
import { documentedBatchClock } from '../../src/demo-upstream/batches.js';
import { startDemoUpstream, type DemoUpstream } from '../../src/demo-upstream/server.js';
import { buildApp, type Bff } from '../../src/server/compose/app.js';
import { Secret } from '../../src/server/secret.js';
import { HistoryStore } from '../../src/server/store/history-store.js';
import type { HistoryCoverage } from '../../src/shared/history-api.js';
import {
  accessFor,
  authModeFromEnv,
  forgetModeOrigin,
  rememberModeOrigin,
} from '../helpers/auth-modes.js';
import { TestClock } from '../helpers/clock.js';
import { frontForApp } from '../helpers/identity-proxy.js';
import { ManualScheduler } from '../helpers/manual-scheduler.js';
import { pgliteTemplateBlob, runFile } from '../helpers/pglite-template.js';
import { testConfig } from '../helpers/test-config.js';

const builtClient = resolve(import.meta.dirname, '../../dist/client');

export interface HistoryE2eStack {
  baseUrl: string;
  app: FastifyInstance;
  bff: Bff;
  demo: DemoUpstream;
  /** What the store holds once the batches are recorded. */
  coverage: HistoryCoverage;
  close(): Promise<void>;
}

const FIRST_BATCH_SEEN_AT = Date.UTC(2026, 10, 10, 10, 30);

/** A minute into each of the next documented batches after `from`: when the clock moves. */
function batchMinutes(from: number, count: number): number[] {
  const times: number[] = [];
  for (let t = from; times.length < count;) {
    t = documentedBatchClock.timeOf(documentedBatchClock.indexAt(t) + 1) + 60_000;
    times.push(t);
  }
  return times;
}

/**
 * The built SPA served by a BFF that has recorded `batches` real batches of the demo upstream on
 * its documented schedule (03:00 and 10:00 UTC), the clock moved batch by batch: what a person
 * sees after some days of running, with history, changes and an event archive. In-memory PGlite.
 * The first file of a run to ask for a number of batches records them; the store it leaves is
 * kept beside the run's PGlite template, and later files start from it at the same clock (the
 * demo's batches are a function of their time, so the rows are the same).
 * Access is TEST_AUTH_MODE's (else open); its clients get in as mode-clients.ts says.
 */
export async function startHistoryE2eStack(
  batches: number,
  /** The demo changes its method (issue 31) from its newest batch on. */
  options: { methodChangeLast?: boolean } = {},
): Promise<HistoryE2eStack> {
  if (!existsSync(builtClient)) throw new Error('dist/client is missing: run `npx vite build`');
  const moves = batchMinutes(FIRST_BATCH_SEEN_AT, batches - 1);
  const method = options.methodChangeLast ? '-method-change' : '';
  const seedFile = runFile(`history-${batches}-batches${method}.tar`);
  const seeded = seedFile && existsSync(seedFile) ? new Blob([readFileSync(seedFile)]) : undefined;
  const clock = new TestClock(seeded ? (moves.at(-1) ?? FIRST_BATCH_SEEN_AT) : FIRST_BATCH_SEEN_AT);
  const scheduler = new ManualScheduler(clock.now);
  const last = moves.at(-1);
  const demo = await startDemoUpstream({
    host: '127.0.0.1',
    port: 0,
    now: clock.now,
    // A minute into the newest batch is when the clock reaches it: its own time is a minute before.
    faults: method && last ? { methodChange: { fromMs: last - 60_000 } } : {},
  });
  const store = await HistoryStore.open({
    dataDir: null,
    databaseUrl: null,
    retentionDays: null,
    pgliteTemplate: seeded ?? pgliteTemplateBlob(),
  });
  const auth = authModeFromEnv();
  const bff = await buildApp(testConfig({ access: accessFor(auth) }), {
    upstream: {
      mode: 'demo',
      baseUrl: demo.url,
      apiKey: new Secret(demo.issueKey('Custom', { limit: 5000 })),
    },
    clientDir: builtClient,
    now: clock.now,
    historyStore: store,
    scheduler,
  });
  const app = bff.app;
  let coverage: HistoryCoverage;
  try {
    await bff.historyIdle();
    for (const at of seeded ? [] : moves) {
      clock.set(at);
      scheduler.runDue();
      await bff.historyIdle();
    }
    coverage = await store.coverage();
    if (coverage.batches < batches) {
      throw new Error(`expected ${batches} recorded batches, the store has ${coverage.batches}`);
    }
    if (seedFile && !seeded) {
      const client = (store.db as unknown as { $client: PGlite }).$client;
      const dump = await client.dumpDataDir('none');
      // Written aside, then renamed: a file of another worker that finds it reads it whole.
      const aside = `${seedFile}.${randomUUID()}`;
      writeFileSync(aside, Buffer.from(await dump.arrayBuffer()));
      renameSync(aside, seedFile);
    }
    await app.listen({ host: '127.0.0.1', port: 0 });
  } catch (error) {
    await app.close();
    await store.close();
    await demo.close();
    throw error;
  }
  // In proxy mode clients go through a proxy that adds its headers to every request, as a real
  // one does (browser downloads included); it forwards from 127.0.0.1, the address trusted.
  const front = await frontForApp(auth, app, async () => {
    await app.close();
    await store.close();
    await demo.close();
  });
  const baseUrl = front.url;
  rememberModeOrigin(baseUrl, auth);
  return {
    baseUrl,
    app,
    bff,
    demo,
    coverage,
    close: async () => {
      forgetModeOrigin(baseUrl);
      await front.close();
      await app.close();
      await store.close();
      await demo.close();
    },
  };
}
