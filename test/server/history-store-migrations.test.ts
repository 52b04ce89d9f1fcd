import { PGlite } from '@electric-sql/pglite';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { Secret } from '../../src/server/secret.js';
import { StoreTooNewError } from '../../src/server/store/connection.js';
import { HistoryStore } from '../../src/server/store/history-store.js';
import { migrationsFolder } from '../../src/server/store/migrations-folder.js';
import { freshPostgresDatabase } from '../helpers/history-store.js';
import { tempDataDir } from '../helpers/test-config.js';
import { batchRecord, countryRow } from '../fixtures/history.js';

const MIGRATIONS = readMigrationFiles({ migrationsFolder: migrationsFolder() }).length;
const FUTURE_MIGRATION = `insert into drizzle.__drizzle_migrations (hash, created_at) values ('future', 4102444800000)`;

describe('store migrations', () => {
  it('two processes starting at once against one PostgreSQL both come up, schema applied once', async () => {
    const url = new Secret(await freshPostgresDatabase());
    const open = () => HistoryStore.open({ dataDir: null, databaseUrl: url, retentionDays: null });
    const [a, b] = await Promise.all([open(), open()]);
    try {
      await a.recordBatch(batchRecord(Date.UTC(2026, 0, 1), [countryRow('AAA', 1)]));
      expect((await b.coverage()).batches).toBe(1);
      const client = new pg.Client({ connectionString: url.reveal() });
      await client.connect();
      const applied = await client.query(
        'select count(*)::int as n from drizzle.__drizzle_migrations',
      );
      await client.end();
      // Each migration the code ships, applied once (not once per process).
      expect(applied.rows[0]).toEqual({ n: MIGRATIONS });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('a PostgreSQL store with a migration this code does not know refuses to start', async () => {
    const url = new Secret(await freshPostgresDatabase());
    const store = await HistoryStore.open({ dataDir: null, databaseUrl: url, retentionDays: null });
    await store.close();
    const client = new pg.Client({ connectionString: url.reveal() });
    await client.connect();
    await client.query(FUTURE_MIGRATION);
    await client.end();
    const reopening = HistoryStore.open({ dataDir: null, databaseUrl: url, retentionDays: null });
    await expect(reopening).rejects.toThrow(StoreTooNewError);
    await expect(reopening).rejects.toThrow(/newer version of the dashboard/);
  });

  it('a PGlite store keeps its batches across a reopen, and refuses when it is newer', async () => {
    const dataDir = tempDataDir('grd-history-');
    const first = await HistoryStore.open({ dataDir, databaseUrl: null, retentionDays: null });
    await first.recordBatch(batchRecord(Date.UTC(2026, 0, 1), [countryRow('AAA', 1)]));
    await first.close();

    const second = await HistoryStore.open({ dataDir, databaseUrl: null, retentionDays: null });
    expect((await second.coverage()).batches).toBe(1);
    expect(
      (await second.recordBatch(batchRecord(Date.UTC(2026, 0, 1), [countryRow('AAA', 2)])))
        .recorded,
    ).toBe(false);
    await second.close();

    const raw = await PGlite.create(`${dataDir}/history`);
    await raw.exec(FUTURE_MIGRATION);
    await raw.close();
    await expect(
      HistoryStore.open({ dataDir, databaseUrl: null, retentionDays: null }),
    ).rejects.toThrow(StoreTooNewError);
  }, 60_000);
});
