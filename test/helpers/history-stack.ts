import type { FastifyInstance } from 'fastify';
import { startDemoUpstream, type DemoUpstream } from '../../src/demo-upstream/server.js';
import { buildApp, type Bff } from '../../src/server/compose/app.js';
import { Secret } from '../../src/server/secret.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { DEFAULT_FRESHNESS } from '../../src/shared/freshness.js';
import {
  accessFor,
  authModeFromEnv,
  credentialsFor,
  injectWith,
  type AuthMode,
} from './auth-modes.js';
import { TestClock } from './clock.js';
import { ManualScheduler } from './manual-scheduler.js';
import { testConfig, type ConfigOverrides } from './test-config.js';
import { startVariantUpstream, type VariantUpstream } from './variant-upstream.js';

export const BATCH_INTERVAL_MS = 10 * 60_000;

/** How the upstream shapes its JSON export: the demo's array, keyed by ISO, or none (CSV). */
export type ExportShape = 'array' | 'keyed' | 'csv-only';

export interface HistoryStack {
  app: FastifyInstance;
  /** The app's handles: waiting for its background work. */
  bff: Bff;
  demo: DemoUpstream;
  clock: TestClock;
  scheduler: ManualScheduler;
  /** How clients get in (null: the test configured access itself). */
  auth: AuthMode | null;
  /** `app.inject` without the mode's credentials (`app.inject` sends them). */
  anonymousInject: FastifyInstance['inject'];
  /** Moves both clocks to the next demo batch and lets the BFF's own watch run. */
  nextBatch(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The BFF recording into `store` from a demo upstream on its fast batch clock (a batch every 10
 * minutes of the test clock); no page is requested unless a test does. Unless the test sets
 * `config.access` itself, access is `auth` (default TEST_AUTH_MODE, else open) and `app.inject`
 * sends that mode's admin credentials (auth-modes.ts).
 */
export async function startHistoryStack(
  store: HistoryStore,
  options: {
    start: number;
    shape?: ExportShape;
    config?: ConfigOverrides;
    auth?: AuthMode;
  },
): Promise<HistoryStack> {
  if (options.auth !== undefined && options.config?.access !== undefined) {
    throw new Error('startHistoryStack: give `auth` or `config.access`, not both');
  }
  const auth = options.config?.access !== undefined ? null : (options.auth ?? authModeFromEnv());
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
  const bff = await buildApp(
    testConfig({
      ...options.config,
      data: { freshness: { ...DEFAULT_FRESHNESS, freshMs: 60_000 }, ...options.config?.data },
      ...(auth === null ? {} : { access: accessFor(auth) }),
    }),
    {
      upstream: { mode: 'demo', baseUrl: variant?.url ?? demo.url, apiKey: new Secret(key) },
      now: clock.now,
      historyStore: store,
      scheduler,
    },
  );
  const app = bff.app;
  await bff.historyIdle();
  const anonymousInject = injectWith(app, auth === null ? {} : credentialsFor(auth));
  return {
    app,
    bff,
    demo,
    clock,
    scheduler,
    auth,
    anonymousInject,
    nextBatch: async () => {
      clock.set((Math.floor(clock.t / BATCH_INTERVAL_MS) + 1) * BATCH_INTERVAL_MS + 1000);
      scheduler.runDue();
      await bff.historyIdle();
    },
    close: async () => {
      await app.close();
      await variant?.close();
      await demo.close();
    },
  };
}
