import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import {
  startDemoUpstream,
  type DemoTier,
  type DemoUpstream,
  type DemoUpstreamOptions,
} from '../../src/demo-upstream/server.js';
import { buildApp, type Bff } from '../../src/server/compose/app.js';
import type { Scheduler } from '../../src/server/jobs/scheduler.js';
import { Secret } from '../../src/server/secret.js';
import { HistoryStore } from '../../src/server/store/history-store.js';
import {
  accessFor,
  authModeFromEnv,
  forgetModeOrigin,
  rememberModeOrigin,
  type AuthMode,
} from './auth-modes.js';
import { frontForApp } from './identity-proxy.js';
import { pgliteTemplateBlob } from './pglite-template.js';
import { testConfig, type ConfigOverrides } from './test-config.js';

export interface Stack {
  /**
   * Where clients reach the BFF, e.g. http://127.0.0.1:41234 (no trailing slash): its own port,
   * or in proxy mode the identity proxy's in front of it (identity-proxy.ts).
   */
  baseUrl: string;
  upstream: DemoUpstream;
  app: FastifyInstance;
  /** The app's handles: waiting for its background work, the demo's sample data. */
  bff: Bff;
  /** The plaintext key issued by the demo upstream (for leak searches; never sent to clients). */
  key: string;
  close(): Promise<void>;
}

export interface StackOptions {
  demo?: DemoUpstreamOptions;
  config?: ConfigOverrides;
  tier?: DemoTier;
  /** Hourly limit of a Custom key. */
  keyLimit?: number;
  /** The BFF's clock (pass the same function as `demo.now` to move both together). */
  now?: () => number;
  logger?: Logger;
  /** Serve the built SPA: defaults to dist/client when it exists. */
  clientDir?: string | null;
  /** When the BFF's jobs wake (batch watch, alert outbox); tests drive it with their clock. */
  scheduler?: Scheduler;
  /** The BFF's port (default: any free one), when something must know it in advance. */
  port?: number;
  /** How clients get in unless `config.access` is given (default TEST_AUTH_MODE, else open). */
  auth?: AuthMode;
}

const builtClient = resolve(import.meta.dirname, '../../dist/client');

/**
 * A demo upstream and the BFF in front of it, both on loopback ports, talking real HTTP: the way
 * browser tests and the benchmark need it. Server tests use `app.inject` on the same app.
 */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const upstream = await startDemoUpstream({ host: '127.0.0.1', port: 0, ...options.demo });
  const key = upstream.issueKey(
    options.tier ?? 'Pro',
    options.keyLimit === undefined ? undefined : { limit: options.keyLimit },
  );
  const auth = options.config?.access !== undefined ? null : (options.auth ?? authModeFromEnv());
  const config = testConfig({
    ...options.config,
    ...(auth === null ? {} : { access: accessFor(auth) }),
  });
  // An in-memory store starts from the run's migrated template (pglite-template.ts) rather than
  // a cold initdb; the app is handed it as `npm start` would open it, and the stack closes it.
  const ownStore =
    config.history && config.history.databaseUrl === null && config.server.dataDir === null
      ? await HistoryStore.open({
          dataDir: null,
          databaseUrl: null,
          retentionDays: config.history.retentionDays,
          pgliteTemplate: pgliteTemplateBlob(),
        })
      : undefined;
  let bff: Bff;
  try {
    bff = await buildApp(config, {
      upstream: { mode: 'demo', baseUrl: upstream.url, apiKey: new Secret(key) },
      clientDir:
        options.clientDir !== undefined
          ? options.clientDir
          : existsSync(builtClient)
            ? builtClient
            : null,
      now: options.now,
      logger: options.logger,
      scheduler: options.scheduler,
      historyStore: ownStore,
    });
    await bff.app.listen({ host: '127.0.0.1', port: options.port ?? 0 });
  } catch (error) {
    await ownStore?.close();
    await upstream.close();
    throw error;
  }
  const app = bff.app;
  // In proxy mode clients go through a proxy that adds its headers to every request, as a real
  // one does (browser downloads included); it forwards from 127.0.0.1, the address trusted.
  const front = await frontForApp(auth, app, async () => {
    await app.close();
    await ownStore?.close();
    await upstream.close();
  });
  const baseUrl = front.url;
  // Browser tests' fetches send the mode's credentials here (test/e2e/mode-clients.ts).
  if (auth !== null) rememberModeOrigin(baseUrl, auth);
  return {
    baseUrl,
    upstream,
    app,
    bff,
    key,
    close: async () => {
      forgetModeOrigin(baseUrl);
      await front.close();
      await app.close();
      await ownStore?.close();
      await upstream.close();
    },
  };
}
