import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppConfig } from '../../src/server/config.js';
import { DEFAULT_FRESHNESS } from '../../src/shared/freshness.js';

/** A fresh temporary directory for a cache file (each test its own, so tests never share disk). */
export function tempDataDir(prefix = 'grd-bff-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A test's changes: each slice given is merged over the test defaults of that slice. */
export type ConfigOverrides = {
  [Slice in keyof AppConfig]?: AppConfig[Slice] extends object | null
    ? Partial<NonNullable<AppConfig[Slice]>> | null
    : AppConfig[Slice];
};

/** The history settings of `parseConfig`'s defaults, generous on one client's questions. */
export function testHistory(overrides: Partial<NonNullable<AppConfig['history']>> = {}) {
  return {
    databaseUrl: null,
    retentionDays: null,
    ...overrides,
    storeQuestions: {
      queriesPerMinute: 60,
      queriesInFlight: 2,
      queryQueue: 50,
      // Generous: tests of the answers ask many questions from one address (loopback).
      perMinute: 100_000,
      perClientInFlight: 8,
      perClientQueue: 1000,
      inFlight: 8,
      ...overrides.storeQuestions,
    },
  };
}

/**
 * The configuration tests build the app with: the production defaults of `parseConfig`, except
 * that nothing persists unless a test asks (`server.dataDir: null`), logs are quiet, retries are
 * fast, and no store is opened unless a test asks for `history` (PGlite's first open takes
 * seconds).
 */
export function testConfig(overrides: ConfigOverrides = {}): AppConfig {
  const base: AppConfig = {
    server: { host: '127.0.0.1', port: 0, logLevel: 'silent', dataDir: null },
    upstream: { mode: 'demo', demoTier: 'Pro' },
    data: {
      quotaReserve: 10,
      freshness: { ...DEFAULT_FRESHNESS },
      cacheMaxEntries: 2000,
      cacheMaxBytes: 256 * 1024 * 1024,
      clientMissesPerMinute: 30,
      clientBudgetSharePercent: 20,
      upstreamTimeouts: { connectMs: 1000, requestMs: 5000 },
      upstreamRetry: { maxAttempts: 3, maxTotalMs: 2000, baseDelayMs: 10 },
    },
    access: {
      dashboardToken: null,
      trustedProxyAuthHeader: null,
      trustedProxyAddresses: [],
      allowedHosts: ['localhost', '127.0.0.1', '::1'],
      allowAnonymous: false,
      behindTls: false,
    },
    look: { tiles: null },
    history: null,
    replicas: null,
    alerts: { webhookAllowPrivate: false, email: null, linkBase: null },
    warnings: [],
  };
  const merged: Record<string, unknown> = { ...base };
  for (const [slice, value] of Object.entries(overrides)) {
    const before = (base as unknown as Record<string, unknown>)[slice];
    const mergeable =
      value !== null &&
      typeof value === 'object' &&
      !Array.isArray(value) &&
      before !== null &&
      typeof before === 'object' &&
      slice !== 'upstream';
    merged[slice] = mergeable ? { ...before, ...value } : value;
  }
  const config = merged as unknown as AppConfig;
  // `history: {}` asks for a store with the defaults.
  if (overrides.history) config.history = testHistory(overrides.history);
  return config;
}
