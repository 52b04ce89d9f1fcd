import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HistoryStore } from '../../src/server/store/history-store.js';
import { watchlists } from '../../src/server/store/alerts-schema.js';
import { startHistoryStack } from '../helpers/history-stack.js';
import { tempDataDir } from '../helpers/test-config.js';

/*
 * The embedded store's health (issue 18, point 2) with a folder that really fails: PGlite's
 * folder under DATA_DIR removed and replaced by a file while the BFF runs (tests run as root,
 * where a read-only folder still takes writes). PGlite keeps its files open, so without a check
 * its writes "succeed" into files no longer on disk: acknowledged, then lost.
 */
const start = Date.UTC(2026, 2, 1, 8, 0, 0);

async function openOnDisk(): Promise<{ store: HistoryStore; folder: string }> {
  const dataDir = tempDataDir('grd-health-');
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
    const { store, folder } = await openOnDisk();
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
});
