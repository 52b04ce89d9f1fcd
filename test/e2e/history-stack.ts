import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { documentedBatchClock } from '../../src/demo-upstream/batches.js';
import { startDemoUpstream, type DemoUpstream } from '../../src/demo-upstream/server.js';
import { buildApp } from '../../src/server/compose/app.js';
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
import { ManualScheduler } from '../helpers/manual-scheduler.js';
import { pgliteTemplateBlob } from '../helpers/pglite-template.js';
import { testConfig } from '../helpers/test-config.js';

const builtClient = resolve(import.meta.dirname, '../../dist/client');

export interface HistoryE2eStack {
  baseUrl: string;
  app: FastifyInstance;
  demo: DemoUpstream;
  /** What the store holds once the batches are recorded. */
  coverage: HistoryCoverage;
  close(): Promise<void>;
}

/**
 * The built SPA served by a BFF that has recorded `batches` real batches of the demo upstream on
 * its documented schedule (03:00 and 10:00 UTC), the clock moved batch by batch: what a person
 * sees after some days of running, with history, changes and an event archive. In-memory PGlite.
 * Access is TEST_AUTH_MODE's (else open); pages and fetches send its credentials (mode-clients.ts).
 */
export async function startHistoryE2eStack(batches: number): Promise<HistoryE2eStack> {
  if (!existsSync(builtClient)) throw new Error('dist/client is missing: run `npx vite build`');
  const clock = new TestClock(Date.UTC(2026, 10, 10, 10, 30));
  const scheduler = new ManualScheduler(clock.now);
  const demo = await startDemoUpstream({ host: '127.0.0.1', port: 0, now: clock.now });
  const store = await HistoryStore.open({
    dataDir: null,
    databaseUrl: null,
    retentionDays: null,
    pgliteTemplate: pgliteTemplateBlob(),
  });
  const auth = authModeFromEnv();
  const app = await buildApp(testConfig({ access: accessFor(auth) }), {
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
  let coverage: HistoryCoverage;
  try {
    await app.historyIdle();
    for (let i = 1; i < batches; i++) {
      const next = documentedBatchClock.timeOf(documentedBatchClock.indexAt(clock.t) + 1);
      clock.set(next + 60_000);
      scheduler.runDue();
      await app.historyIdle();
    }
    coverage = await store.coverage();
    if (coverage.batches < batches) {
      throw new Error(`expected ${batches} recorded batches, the store has ${coverage.batches}`);
    }
    await app.listen({ host: '127.0.0.1', port: 0 });
  } catch (error) {
    await app.close();
    await store.close();
    await demo.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const baseUrl = `http://127.0.0.1:${port}`;
  rememberModeOrigin(baseUrl, auth);
  return {
    baseUrl,
    app,
    demo,
    coverage,
    close: async () => {
      forgetModeOrigin(baseUrl);
      await app.close();
      await store.close();
      await demo.close();
    },
  };
}
