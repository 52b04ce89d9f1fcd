import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { HistoryStore } from '../../src/server/store/history-store.js';
import { watchlists } from '../../src/server/store/alerts-schema.js';
import { rowsOf } from '../../src/server/store/connection.js';
import { pgTable, text } from 'drizzle-orm/pg-core';
import { StoreFailingError, storeFailure } from '../../src/server/store/store-health.js';
import { startHistoryStack } from '../helpers/history-stack.js';
import { templateDataDir } from '../helpers/pglite-template.js';
import { tempDataDir } from '../helpers/test-config.js';

/*
 * The embedded store's health (issue 18, point 2) with a folder that really fails: PGlite's
 * folder under DATA_DIR removed and replaced by a file while the BFF runs (tests run as root,
 * where a read-only folder still takes writes). PGlite keeps its files open, so without a check
 * its writes "succeed" into files no longer on disk: acknowledged, then lost.
 */
const start = Date.UTC(2026, 2, 1, 8, 0, 0);
/** The table the disk-failure case makes, as the query builder sees it. */
const diskProbe = pgTable('disk_probe', { v: text('v') });

/**
 * A store on disk: a copy of the run's migrated template, or made from nothing (`cold`) by
 * initdb and the migrations in this process, which leaves its tables' files open.
 */
async function openOnDisk(
  made: 'copy' | 'cold' = 'copy',
): Promise<{ store: HistoryStore; folder: string }> {
  const dataDir = made === 'copy' ? templateDataDir('grd-health-') : tempDataDir('grd-health-');
  const store = await HistoryStore.open({ dataDir, databaseUrl: null, retentionDays: null });
  return { store, folder: join(dataDir, 'history') };
}

function replaceFolderByFile(folder: string): void {
  rmSync(folder, { recursive: true, force: true });
  writeFileSync(folder, 'not a folder any more');
}

describe('the embedded store with its folder gone', () => {
  it('shows in /api/status and /readyz, refuses writes with 503, and records no batch', async () => {
    const { store, folder } = await openOnDisk();
    const stack = await startHistoryStack(store, { start });
    try {
      const before = (await stack.app.inject('/api/status')).json<{ store: unknown }>();
      expect(before.store).toMatchObject({ kind: 'pglite', health: 'ok', message: null });
      // While the folder is there, each new batch is recorded.
      const first = store.lastCoverage.batches;
      await stack.nextBatch();
      const recorded = store.lastCoverage.batches;
      expect(recorded).toBeGreaterThan(first);

      replaceFolderByFile(folder);

      const status = (await stack.app.inject('/api/status')).json<{
        store: { health: string; message: string; since: string };
      }>();
      expect(status.store.health).toBe('failing');
      expect(status.store.message).toContain('DATA_DIR/history');
      expect(status.store.message).toContain('cannot be saved');
      const ready = await stack.app.inject('/readyz');
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ ok: false, error: status.store.message });

      const created = await stack.app.inject({
        method: 'POST',
        url: '/api/watchlists',
        payload: { name: 'Sahel', countries: ['MLI'] },
      });
      expect(created.statusCode, created.body).toBe(503);
      expect(created.json<{ error: string }>().error).toMatch(
        /^The history store's folder \(DATA_DIR\/history\) has been replaced by a file; .* Nothing was saved\.$/,
      );
      expect(created.headers['retry-after']).toBeDefined();
      const marked = await stack.app.inject({
        method: 'POST',
        url: '/api/alerts/read',
        payload: { all: true },
      });
      expect(marked.statusCode, marked.body).toBe(503);

      // The next batch is not recorded (the watch fails and tries again), not "recorded" into
      // files that no longer exist.
      await stack.nextBatch();
      expect(store.lastCoverage.batches).toBe(recorded);
      expect(stack.scheduler.nextAt()).not.toBeNull();
    } finally {
      await stack.close();
      await store.close().catch(() => undefined);
    }
  }, 120_000);

  it('a transaction whose folder vanishes before it commits is refused, not acknowledged', async () => {
    // Made cold, as it always was: on a copied store, whose table files this process has not
    // opened yet, the transaction never settles once the folder is gone (seen 24 Nov 2026;
    // PGlite's, not this test's, to answer; see the commit message).
    const { store, folder } = await openOnDisk('cold');
    try {
      const write = store.db.transaction(async (tx) => {
        await tx.insert(watchlists).values({ name: 'Lost', countries: ['MLI'], rules: [] });
        replaceFolderByFile(folder);
      });
      await expect(write).rejects.toThrow(/may not have been stored; nothing is acknowledged/);
      expect(store.health()).toMatchObject({ health: 'failing' });
    } finally {
      await store.close().catch(() => undefined);
    }
  }, 120_000);

  it('a write the disk refuses is a StoreFailingError, and failing until a write succeeds', async () => {
    const { store, folder } = await openOnDisk();
    try {
      await store.db.execute(sql`create table disk_probe (v text)`);
      await store.db.execute(sql`checkpoint`);
      const [row] = rowsOf(
        await store.db.execute(sql`select pg_relation_filepath('disk_probe') as path`),
      );
      await store.close();
      const reopened = await HistoryStore.open({
        dataDir: join(folder, '..'),
        databaseUrl: null,
        retentionDays: null,
      });
      try {
        // The table's file turned into a folder: PostgreSQL cannot open it to write.
        const file = join(folder, String(row?.path));
        rmSync(file);
        mkdirSync(file);
        const write = reopened.db.execute(sql`insert into disk_probe values ('x')`);
        await expect(write).rejects.toSatisfy((error) => {
          for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
            if (e instanceof StoreFailingError)
              return /cannot write: could not open file/.test(e.message);
          }
          return false;
        });
        expect(reopened.health()).toMatchObject({ health: 'failing' });
        expect(reopened.health()?.message).toContain('Is a directory');
        // In a transaction (every write of a route) drizzle wraps the driver's error in "Failed
        // query: <SQL>" before the commit fails: the refusal (a 503's words) names the disk,
        // never the statement.
        const built = reopened.db.transaction(async (tx) => {
          await tx.insert(diskProbe).values({ v: 'y' });
        });
        await expect(built).rejects.toSatisfy((error) => {
          const refusal = storeFailure(error);
          return (
            refusal !== null &&
            /cannot write: could not open file/.test(refusal.message) &&
            !/Failed query|insert into/i.test(refusal.message)
          );
        });

        rmSync(file, { recursive: true });
        await reopened.db.execute(sql`select 1`);
        expect(reopened.health()).toMatchObject({ health: 'ok', message: null });
      } finally {
        await reopened.close();
      }
    } finally {
      await store.close().catch(() => undefined);
    }
  }, 120_000);
});
