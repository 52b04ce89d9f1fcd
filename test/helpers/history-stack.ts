import type { FastifyInstance } from 'fastify';
import { startDemoUpstream, type DemoUpstream } from '../../src/demo-upstream/server.js';
import { buildApp } from '../../src/server/compose/app.js';
import type { AppConfig } from '../../src/server/config.js';
import { Secret } from '../../src/server/secret.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { DEFAULT_FRESHNESS } from '../../src/shared/freshness.js';
import { TestClock } from './clock.js';
import { ManualScheduler } from './manual-scheduler.js';
import { testConfig } from './test-config.js';
import { startVariantUpstream, type VariantUpstream } from './variant-upstream.js';

export const BATCH_INTERVAL_MS = 10 * 60_000;

/** How the upstream shapes its JSON export: the demo's array, keyed by ISO, or none (CSV). */
export type ExportShape = 'array' | 'keyed' | 'csv-only';

export interface HistoryStack {
  app: FastifyInstance;
  demo: DemoUpstream;
  clock: TestClock;
  scheduler: ManualScheduler;
  /** Moves both clocks to the next demo batch and lets the BFF's own watch run. */
  nextBatch(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The BFF recording into `store` from a demo upstream on its fast batch clock (a batch every 10
 * minutes of the test clock); no page is requested unless a test does.
 */
export async function startHistoryStack(
  store: HistoryStore,
  options: { start: number; shape?: ExportShape; config?: Partial<AppConfig> },
): Promise<HistoryStack> {
  const clock = new TestClock(options.start);
  const scheduler = new ManualScheduler(clock.now);
  const demo = await startDemoUpstream({
    host: '127.0.0.1',
    port: 0,
    now: clock.now,
    batchIntervalMs: BATCH_INTERVAL_MS,
  });
  const shape = options.shape ?? 'array';
  let variant: VariantUpstream | null = null;
  if (shape !== 'array') {
    variant = await startVariantUpstream(demo.url, {
      countries: shape === 'keyed' ? 'keyed' : 'drop',
    });
  }
  const key = demo.issueKey('Custom', { limit: 1000 });
  const app = await buildApp(
    testConfig({ freshness: { ...DEFAULT_FRESHNESS, freshMs: 60_000 }, ...options.config }),
    {
      upstream: { mode: 'demo', baseUrl: variant?.url ?? demo.url, apiKey: new Secret(key) },
      now: clock.now,
      historyStore: store,
      scheduler,
    },
  );
  await app.historyIdle();
  return {
    app,
    demo,
    clock,
    scheduler,
    nextBatch: async () => {
      clock.set((Math.floor(clock.t / BATCH_INTERVAL_MS) + 1) * BATCH_INTERVAL_MS + 1000);
      scheduler.runDue();
      await app.historyIdle();
    },
    close: async () => {
      await app.close();
      await variant?.close();
      await demo.close();
    },
  };
}
