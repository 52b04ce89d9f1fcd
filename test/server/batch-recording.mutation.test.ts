import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pastBatches } from '../../src/demo-upstream/history-seed.js';
import type { CountrySummary } from '../../src/shared/bff-api.js';
import { selectChainEntryOfBatch } from '../../src/server/store/batch-chain.js';
import { selectCountryRows } from '../../src/server/store/batches.js';
import { sealedMonths } from '../../src/server/store/schema.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { openAppStore } from '../helpers/history-store.js';

/*
 * What recording a batch stores (store/batches.ts insertBatch), column by column: the global
 * summary's numbers, every country's, and the tier counts. Each case pins a line that the store's
 * own tests (history-store) let change.
 */
const start = Date.UTC(2026, 5, 1, 12, 0, 0);

let store: HistoryStore;
beforeAll(async () => {
  store = await openAppStore();
}, 60_000);
afterAll(async () => {
  await store?.close();
});

describe('a recorded batch', () => {
  it('keeps the global summary’s numbers and every country’s, as given', async () => {
    const [batch] = [...pastBatches(start, 1)];
    const { batchId } = await store.recordBatch({
      asOf: new Date(batch!.asOf),
      methodologyVersion: batch!.methodologyVersion,
      global: batch!.global,
      source: 'export_json',
      demo: false,
      countries: batch!.countries,
    });
    const [row] = await store.batches({ from: new Date(batch!.asOf), to: new Date(batch!.asOf) });
    const g = batch!.global!;
    expect([row!.globalStatic, row!.globalActive, row!.events24h, row!.globalTier]).toEqual([
      g.static ?? null,
      g.active ?? null,
      g.events_24h ?? null,
      g.tier ?? null,
    ]);
    expect(g.static ?? g.active ?? g.tier).not.toBeUndefined();
    const stored = new Map((await selectCountryRows(store.db, batchId!)).map((r) => [r.iso, r]));
    for (const c of batch!.countries) {
      const r = stored.get(c.iso)!;
      expect(
        [
          r.tier,
          r.static,
          r.active,
          r.deltaActive,
          r.deltaHeadline,
          r.confidence,
          r.profile,
          r.sourceCount,
        ],
        c.iso,
      ).toEqual([
        c.tier ?? null,
        c.static ?? null,
        c.active ?? null,
        c.delta_active ?? null,
        c.delta_headline ?? null,
        c.confidence ?? null,
        c.profile ?? null,
        c.source_count ?? null,
      ]);
    }
  });

  it('counts tiers over the countries that have one; a point with neither countries nor counts has none', async () => {
    const country = (iso: string, tier: string | null) =>
      ({ iso, name: iso, tier, risk: 10, source_count: 7 }) as unknown as CountrySummary;
    const asOf = new Date(start + 86_400_000);
    const { batchId } = await store.recordBatch({
      asOf,
      methodologyVersion: 'test',
      global: null,
      source: 'export_json',
      demo: false,
      countries: [country('FRA', 'low'), country('DEU', 'low'), country('ITA', null)],
    });
    const point = new Date(start - 86_400_000);
    const { batchId: pointId } = await store.recordBatch({
      asOf: point,
      methodologyVersion: 'test',
      global: null,
      source: 'feed_history',
      demo: false,
      countries: [],
    });
    const [counted] = await store.batches({ from: asOf, to: asOf });
    expect(counted!.tierCounts).toEqual({ low: 2 });
    expect(counted!.globalTier).toBeNull();
    // The demo's seed has no source counts: these countries have (7 each).
    expect((await selectCountryRows(store.db, batchId!)).map((r) => r.sourceCount)).toEqual([
      7, 7, 7,
    ]);
    const [bare] = await store.batches({ from: point, to: point });
    expect(bare!.tierCounts).toBeNull();
    // A batch with countries takes its place in the chain as it is recorded; a global-only point
    // has no content to chain.
    expect(await selectChainEntryOfBatch(store.db, batchId!)).not.toBeNull();
    expect(await selectChainEntryOfBatch(store.db, pointId!)).toBeNull();
  });

  it('a late global-only point leaves its month sealed (only country rows unseal a month)', async () => {
    const own = await openAppStore();
    try {
      const country = { iso: 'FRA', name: 'France', tier: 'low', risk: 10 } as CountrySummary;
      const record = (asOf: number, countries: CountrySummary[]) =>
        own.recordBatch({
          asOf: new Date(asOf),
          methodologyVersion: 'test',
          global: null,
          source: countries.length > 0 ? 'export_json' : 'feed_history',
          demo: false,
          countries,
        });
      await record(Date.UTC(2026, 3, 10), [country]);
      // A batch in the next month closes April: it is sealed into blocks.
      await record(Date.UTC(2026, 4, 10), [country]);
      const sealed = async () => (await own.db.select().from(sealedMonths)).map((row) => row.month);
      expect(await sealed()).toEqual(['2026-04-01']);
      // A global-only point dated in April, recorded late: April keeps its blocks.
      expect((await record(Date.UTC(2026, 3, 20), [])).recorded).toBe(true);
      expect(await sealed()).toEqual(['2026-04-01']);
    } finally {
      await own.close();
    }
  });
});
