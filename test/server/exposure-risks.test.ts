import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pastBatches } from '../../src/demo-upstream/history-seed.js';
import { demoSeedRecord } from '../../src/server/compose/demo.js';
import { selectRisksOf } from '../../src/server/store/batches.js';
import { HistoryStore as Store, type HistoryStore } from '../../src/server/store/history-store.js';
import { selectRiskHistory } from '../../src/server/store/series.js';
import { openTestStore, STORE_BACKENDS } from '../helpers/history-store.js';
import { tempDataDir } from '../helpers/test-config.js';
import { batchRecord, countryRow } from '../fixtures/history.js';

/*
 * The exposure index's risk history read from the sealed months' risk series (`month_risks`)
 * plus the other months' rows: exactly the risks `country_rows` holds, at every batch, across a
 * sealed month, a late batch that unsealed one, retention and a store sealed before the series.
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
    const fromBlocks = (await selectRiskHistory(store.db, ISOS)).map(key);
    expect(fromRows.length).toBe(50 * ISOS.length);
    expect(fromBlocks.sort()).toEqual(fromRows.sort());
  });
});

const at = (month: number, day: number, hour = 3): number => Date.UTC(2024, month - 1, day, hour);

const key = (r: { at: number; iso: string; risk: number | null }) => `${r.iso}|${r.at}|${r.risk}`;

/** The risk history as read for the index, and as the rows tell it; sorted for comparison. */
async function bothReads(store: HistoryStore, isos: string[]) {
  const fromRows = (await selectRisksOf(store.db, isos)).map((r) =>
    key({ at: r.asOf.getTime(), iso: r.iso.trim(), risk: r.risk }),
  );
  return { read: (await selectRiskHistory(store.db, isos)).map(key).sort(), rows: fromRows.sort() };
}

async function expectSameAsRows(store: HistoryStore, isos: string[], points: number) {
  const { read, rows } = await bothReads(store, isos);
  expect(rows).toHaveLength(points);
  expect(read).toEqual(rows);
}

describe.each(STORE_BACKENDS)('the risk history around sealing (%s)', (backend) => {
  it('a late batch in a sealed month is read from the rows, then from its series again', async () => {
    const store = await openTestStore(backend);
    try {
      await store.recordBatch(batchRecord(at(1, 5), [countryRow('AAA', 10), countryRow('BBB', 1)]));
      await store.recordBatch(batchRecord(at(1, 20), [countryRow('AAA', 11)]));
      // Opens February: January is sealed, its risks written as a series.
      await store.recordBatch(batchRecord(at(2, 1), [countryRow('AAA', 12), countryRow('BBB', 2)]));
      await expectSameAsRows(store, ['AAA', 'BBB'], 5);
      // A gap filled after a restart: January is unsealed, its series now one point short.
      await store.recordBatch(batchRecord(at(1, 10), [countryRow('AAA', 99)]));
      await expectSameAsRows(store, ['AAA', 'BBB'], 6);
      // A later batch seals January again, the late point in its series.
      await store.recordBatch(batchRecord(at(3, 2), [countryRow('AAA', 13)]));
      await expectSameAsRows(store, ['AAA', 'BBB'], 7);
    } finally {
      await store.close();
    }
  }, 60_000);

  it('leaves out the points retention pruned from a month still sealed', async () => {
    const store = await openTestStore(backend, 30);
    try {
      await store.recordBatch(batchRecord(at(1, 15), [countryRow('HHH', 1)]));
      await store.recordBatch(batchRecord(at(2, 10), [countryRow('HHH', 2)]));
      await store.recordBatch(batchRecord(at(2, 25), [countryRow('HHH', 3)]));
      await store.recordBatch(batchRecord(at(3, 5), [countryRow('HHH', 4)]));
      expect(await store.prune(at(3, 20))).toEqual({ batches: 2, events: 0 });
      await expectSameAsRows(store, ['HHH'], 2);
    } finally {
      await store.close();
    }
  }, 60_000);
});

describe('a store sealed before the months had risk series', () => {
  it('gets them when it is opened, and reads the same', async () => {
    const dataDir = tempDataDir('grd-exposure-risks-');
    const options = { dataDir, databaseUrl: null, retentionDays: null };
    const first = await Store.open(options);
    for (let i = 0; i < 6; i += 1) {
      await first.recordBatch(batchRecord(at(1, 1) + i * 12 * 86_400_000, [countryRow('AAA', i)]));
    }
    await first.close();
    // What the migration adding month_risks leaves on a store sealed before it: the table, empty.
    const raw = await PGlite.create(`${dataDir}/history`);
    await raw.exec('delete from month_risks');
    await raw.close();

    const reopened = await Store.open(options);
    try {
      await expectSameAsRows(reopened, ['AAA'], 6);
      const filled = await reopened.db.execute('select distinct month from month_risks');
      expect(JSON.stringify(filled)).toContain('2024-02-01');
    } finally {
      await reopened.close();
    }
  }, 60_000);
});
