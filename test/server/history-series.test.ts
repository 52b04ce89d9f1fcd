import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryStore, Range } from '../../src/server/store/history-store.js';
import { HistoryStore as Store } from '../../src/server/store/history-store.js';
import { openTestStore, STORE_BACKENDS } from '../helpers/history-store.js';
import { templateDataDir } from '../helpers/pglite-template.js';
import { batchRecord, countryRow, DAY, HOUR } from '../fixtures/history.js';

/*
 * A country's history is read from monthly blocks once a month is closed (country_months), and
 * from country_rows otherwise. Whatever the mix, it must be exactly what the rows say.
 */
const at = (month: number, day: number, hour = 3): number => Date.UTC(2024, month - 1, day, hour);

function renamed(iso: string, risk: number, name: string) {
  return { ...countryRow(iso, risk), name };
}

/** The history as the rows tell it (the layout before the blocks), in the API's shape. */
async function fromRows(store: HistoryStore, iso: string, range: Range) {
  const rows = await store.countrySeries(iso, range);
  return {
    name: rows.at(-1)?.name ?? null,
    points: rows.map((row) => ({
      as_of: row.asOf.toISOString(),
      risk: row.risk,
      tier: row.tier,
      static: row.static,
      active: row.active,
      confidence: row.confidence,
      categories: row.categories,
    })),
  };
}

async function fromStore(store: HistoryStore, iso: string, range: Range) {
  const history = await store.countryHistory(iso, range);
  return {
    name: history.points.at(-1)?.name ?? null,
    points: history.points.map(({ name: _name, ...point }) => point),
  };
}

const ranges: Range[] = [
  { from: null, to: null },
  { from: new Date(at(1, 10)), to: new Date(at(2, 1, 0)) },
  { from: new Date(at(1, 15)), to: new Date(at(2, 20)) },
  { from: null, to: new Date(at(1, 31, 12)) },
  { from: new Date(at(2, 1, 0)), to: null },
  { from: new Date(at(4, 1)), to: null },
];

async function expectSameAsRows(store: HistoryStore, iso: string): Promise<void> {
  for (const range of ranges) {
    expect(await fromStore(store, iso, range)).toEqual(await fromRows(store, iso, range));
  }
}

describe.each(STORE_BACKENDS)('country history from monthly blocks on %s', (backend) => {
  let store: HistoryStore;
  beforeAll(async () => {
    store = await openTestStore(backend);
  }, 60_000);
  afterAll(async () => {
    await store?.close();
  });

  it('reads the same as the rows across sealed and open months, late batches included', async () => {
    await store.recordBatch(batchRecord(at(1, 5), [countryRow('AAA', 10), countryRow('BBB', 1)]));
    await store.recordBatch(batchRecord(at(1, 20, 10), [countryRow('AAA', 11)]));
    await store.recordBatch(
      batchRecord(at(1, 31, 23), [renamed('AAA', 12, 'New AAA'), countryRow('BBB', 2)]),
    );
    // Opens February: January is sealed into blocks.
    await store.recordBatch(
      batchRecord(at(2, 1, 0), [countryRow('AAA', 13), countryRow('BBB', 3)]),
    );
    await store.recordBatch(batchRecord(at(2, 15), [renamed('AAA', 14, 'Newer AAA')]));
    await store.recordBatch(batchRecord(at(3, 3), [countryRow('AAA', 15), countryRow('BBB', 5)]));
    const all = await fromStore(store, 'AAA', { from: null, to: null });
    expect(all.points.map((p) => p.risk)).toEqual([10, 11, 12, 13, 14, 15]);
    expect(all.points[2]?.categories?.security?.score).toBe(12);
    await expectSameAsRows(store, 'AAA');
    await expectSameAsRows(store, 'BBB');
    // The name of the range's last point, not of the last point of its month's block.
    const early = { from: new Date(at(2, 1, 0)), to: new Date(at(2, 10)) };
    expect((await fromStore(store, 'AAA', early)).name).toBe('Country AAA');
    expect((await fromStore(store, 'AAA', { from: null, to: new Date(at(2, 28)) })).name).toBe(
      'Newer AAA',
    );

    // A late batch in a sealed month (a gap filled after a restart) is in the answer at once…
    await store.recordBatch(batchRecord(at(1, 10), [countryRow('AAA', 99)]));
    const late = await fromStore(store, 'AAA', { from: null, to: new Date(at(1, 31)) });
    expect(late.points.map((p) => p.risk)).toEqual([10, 99, 11]);
    await expectSameAsRows(store, 'AAA');
    // …and once its month is sealed again by a later batch.
    await store.recordBatch(batchRecord(at(3, 10), [countryRow('AAA', 16)]));
    await expectSameAsRows(store, 'AAA');
    await expectSameAsRows(store, 'BBB');
    const seen = await store.countryHistory('BBB', { from: null, to: null });
    expect([seen.first?.getTime(), seen.last?.getTime()]).toEqual([at(1, 5), at(3, 3)]);
    expect(seen.points.map((p) => p.risk)).toEqual([1, 2, 3, 5]);
    expect((await store.countryHistory('ZZZ', { from: null, to: null })).points).toEqual([]);
    // The size it reports (for the answer memo's byte bound) is the points' JSON, or a little more.
    const whole = await store.countryHistory('AAA', { from: null, to: null });
    const json = JSON.stringify(whole.points).length;
    expect(whole.bytes).toBeGreaterThanOrEqual(json);
    expect(whole.bytes).toBeLessThan(json * 1.5);
  }, 60_000);

  it('drops the points retention pruned from a month that is still in a block', async () => {
    const retained = await openTestStore(backend, 30);
    try {
      const now = at(3, 20);
      await retained.recordBatch(batchRecord(at(1, 15), [countryRow('HHH', 1)]));
      await retained.recordBatch(batchRecord(at(2, 10), [countryRow('HHH', 2)]));
      await retained.recordBatch(batchRecord(at(2, 25), [countryRow('HHH', 3)]));
      await retained.recordBatch(batchRecord(at(3, 5), [countryRow('HHH', 4)]));
      expect(await retained.prune(now)).toEqual({ batches: 2, events: 0 });
      const history = await retained.countryHistory('HHH', { from: null, to: null });
      expect(history.points.map((p) => [p.as_of, p.risk])).toEqual([
        [new Date(at(2, 25)).toISOString(), 3],
        [new Date(at(3, 5)).toISOString(), 4],
      ]);
      expect(history.first?.getTime()).toBe(at(2, 25));
      await expectSameAsRows(retained, 'HHH');
    } finally {
      await retained.close();
    }
  }, 60_000);
});

describe('a store recorded before the monthly blocks existed', () => {
  it('gets its blocks when it is opened, and reads the same', async () => {
    // A copy of the run's migrated store: what a first start makes (initdb, the migrations) has
    // its own tests (history-store-migrations); this one is about what an open does to the rows.
    const dataDir = templateDataDir('grd-history-series-');
    const options = { dataDir, databaseUrl: null, retentionDays: null };
    const first = await Store.open(options);
    for (let i = 0; i < 6; i += 1) {
      await first.recordBatch(batchRecord(at(1, 1) + i * 12 * DAY + HOUR, [countryRow('AAA', i)]));
    }
    await first.close();
    // What migration 0001 leaves on a store recorded before it: the new tables, empty.
    const raw = await PGlite.create(`${dataDir}/history`);
    await raw.exec('delete from country_months; delete from sealed_months');
    await raw.close();

    const reopened = await Store.open(options);
    await expectSameAsRows(reopened, 'AAA');
    expect((await reopened.countryHistory('AAA', { from: null, to: null })).points).toHaveLength(6);
    await reopened.close();
    const check = await PGlite.create(`${dataDir}/history`);
    const sealed = await check.query<{ month: string }>(
      "select to_char(month, 'YYYY-MM-DD') as month from sealed_months order by month",
    );
    await check.close();
    // Batches on Jan 1, 13, 25, Feb 6, 18, Mar 1: January and February are closed.
    expect(sealed.rows.map((r) => r.month)).toEqual(['2024-01-01', '2024-02-01']);
  }, 60_000);
});
