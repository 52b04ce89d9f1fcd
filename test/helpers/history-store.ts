import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { Secret } from '../../src/server/secret.js';
import { HistoryStore } from '../../src/server/store/history-store.js';
import { pgliteTemplateBlob } from './pglite-template.js';

const ALL_BACKENDS = ['pglite', 'postgres'] as const;
export type StoreBackend = (typeof ALL_BACKENDS)[number];
/**
 * The backends the store's SQL is tested on. Mutation runs (vitest.mutation.config.ts) set
 * TEST_STORE_BACKENDS=postgres: they mutate what uses the store, not its SQL, and a cold PGlite
 * costs seconds of CPU for every mutant.
 */
export const STORE_BACKENDS: readonly StoreBackend[] =
  process.env.TEST_STORE_BACKENDS === 'postgres' ? ['postgres'] : ALL_BACKENDS;

/** A new, empty database on the test run's PostgreSQL server; returns its URL. */
export async function freshPostgresDatabase(): Promise<string> {
  const base = inject('postgresUrl');
  const name = `grd_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  return base.replace(/\/[^/]*$/, `/${name}`);
}

/** A new database on the run's PostgreSQL server with the store's migrations applied; its URL. */
export async function migratedPostgresDatabase(): Promise<string> {
  const url = await freshPostgresDatabase();
  await (
    await HistoryStore.open({ dataDir: null, databaseUrl: new Secret(url), retentionDays: null })
  ).close();
  return url;
}

/** An empty store: in-memory PGlite (from the run's template), or a new database on the server. */
export async function openTestStore(
  backend: StoreBackend,
  retentionDays: number | null = null,
): Promise<HistoryStore> {
  if (backend === 'pglite') {
    return HistoryStore.open({
      dataDir: null,
      databaseUrl: null,
      retentionDays,
      pgliteTemplate: pgliteTemplateBlob(),
    });
  }
  const databaseUrl = new Secret(await freshPostgresDatabase());
  return HistoryStore.open({ dataDir: null, databaseUrl, retentionDays });
}

/**
 * A store for tests of what the app does with one (recording, alerts, deliveries, routes), not
 * of the store itself: a new database on the run's PostgreSQL server, a few milliseconds, where
 * a cold in-memory PGlite costs about 2.5 s of CPU. The store's own SQL runs on both backends in
 * the tests that loop over STORE_BACKENDS (history-store, history-series, outbox-claims,
 * alert-bounds), and on PGlite files in store-health and history-store-migrations.
 */
export function openAppStore(retentionDays: number | null = null): Promise<HistoryStore> {
  return openTestStore('postgres', retentionDays);
}
