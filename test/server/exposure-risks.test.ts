import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pastBatches } from '../../src/demo-upstream/history-seed.js';
import { demoSeedRecord } from '../../src/server/compose/demo.js';
import { selectRisksOf } from '../../src/server/store/batches.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { selectRisksFromBlocks } from '../../src/server/store/series.js';
import { openTestStore, STORE_BACKENDS } from '../helpers/history-store.js';

/*
 * The exposure index's risk history read from the sealed months' blocks plus the open month's
 * rows: exactly the risks `country_rows` holds, at every batch, across a sealed month.
 */
const ISOS = ['POL', 'UKR', 'FRA', 'KEN'];

describe.each(STORE_BACKENDS)('risks for the exposure index (%s)', (backend) => {
  let store: HistoryStore;
  beforeAll(async () => {
    store = await openTestStore(backend);
    // 50 batches (25 days) ending on 10 March: February is sealed, March is open.
    for (const batch of pastBatches(Date.UTC(2026, 2, 10, 12), 50)) {
      await store.recordBatch(demoSeedRecord(batch));
    }
  }, 120_000);
  afterAll(async () => store?.close());

  it('equals the rows, point for point, with a sealed month among them', async () => {
    const sealed = await store.db.execute('select month from sealed_months');
    expect(JSON.stringify(sealed)).toContain('2026-02-01');
    const key = (r: { at: number; iso: string; risk: number | null }) =>
      `${r.iso}|${r.at}|${r.risk}`;
    const fromRows = (await selectRisksOf(store.db, ISOS)).map((r) =>
      key({ at: r.asOf.getTime(), iso: r.iso.trim(), risk: r.risk }),
    );
    const fromBlocks = (await selectRisksFromBlocks(store.db, ISOS)).map(key);
    expect(fromRows.length).toBe(50 * ISOS.length);
    expect(fromBlocks.sort()).toEqual(fromRows.sort());
  });
});
