import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { Secret } from '../../src/server/secret.js';
import { HistoryStore } from '../../src/server/store/history-store.js';

export const STORE_BACKENDS = ['pglite', 'postgres'] as const;
export type StoreBackend = (typeof STORE_BACKENDS)[number];

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

/** An empty store: in-memory PGlite, or a new database on the real server. */
export async function openTestStore(
  backend: StoreBackend,
  retentionDays: number | null = null,
): Promise<HistoryStore> {
  const databaseUrl = backend === 'postgres' ? new Secret(await freshPostgresDatabase()) : null;
  return HistoryStore.open({ dataDir: null, databaseUrl, retentionDays });
}
