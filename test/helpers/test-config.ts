import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppConfig } from '../../src/server/config.js';
import { DEFAULT_FRESHNESS } from '../../src/shared/freshness.js';

/** A fresh temporary directory for a cache file (each test its own, so tests never share disk). */
export function tempDataDir(prefix = 'grd-bff-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/**
 * The configuration tests build the app with: the production defaults of `parseConfig`, except
 * that nothing persists unless a test asks (`dataDir: null`), logs are quiet and retries are fast.
 */
export function testConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    host: '127.0.0.1',
    port: 0,
    upstream: { mode: 'demo', demoTier: 'Pro' },
    dataDir: null,
    access: {
      dashboardToken: null,
      trustedProxyAuthHeader: null,
      trustedProxyAddresses: [],
      allowedHosts: ['localhost', '127.0.0.1', '::1'],
      allowAnonymous: false,
    },
    quotaReserve: 10,
    freshness: { ...DEFAULT_FRESHNESS },
    cacheMaxEntries: 2000,
    cacheMaxBytes: 256 * 1024 * 1024,
    clientMissesPerMinute: 30,
    clientBudgetSharePercent: 20,
    storeQueries: { perClientPerMinute: 60, inFlight: 2, queue: 50 },
    // Generous: tests of the answers ask many questions from one address (loopback).
    historyQuestions: {
      costPerMinute: 100_000,
      perClientInFlight: 8,
      perClientQueue: 1000,
      inFlight: 8,
    },
    upstreamTimeouts: { connectMs: 1000, requestMs: 5000 },
    upstreamRetry: { maxAttempts: 3, maxTotalMs: 2000, baseDelayMs: 10 },
    tiles: null,
    behindTls: false,
    logLevel: 'silent',
    // No history store unless a test asks for one (PGlite's first open takes seconds).
    history: null,
    ...overrides,
  };
}
