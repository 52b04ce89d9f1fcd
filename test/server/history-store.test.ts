import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CountrySummary } from '../../src/shared/bff-api.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { openTestStore, STORE_BACKENDS } from '../helpers/history-store.js';
import { batchRecord, countryRow, DAY, event, HOUR } from '../fixtures/history.js';

/*
 * The store's contract, on both backends: embedded PGlite and a real PostgreSQL server. One
 * store per backend for the file (PGlite's first open takes seconds); each test works in its own
 * era of time so tests do not see each other's rows.
 */
const era = (n: number): number => Date.UTC(2020, 0, 1) + n * 100 * DAY;

describe.each(STORE_BACKENDS)('history store on %s', (backend) => {
  let store: HistoryStore;
  beforeAll(async () => {
    store = await openTestStore(backend);
  }, 60_000);
  afterAll(async () => {
    await store?.close();
  });

  it('records a batch once however often it is offered, and reads the series back', async () => {
    const t = era(1);
    const first = await store.recordBatch(
      batchRecord(t, [countryRow('AAA', 50), countryRow('BBB', 20)]),
    );
    expect(first.recorded).toBe(true);
    const again = await Promise.all([
      store.recordBatch(batchRecord(t, [countryRow('AAA', 99)])),
      store.recordBatch(batchRecord(t, [countryRow('AAA', 98)])),
    ]);
    expect(again.map((r) => r.recorded)).toEqual([false, false]);
    await store.recordBatch(batchRecord(t + 12 * HOUR, [countryRow('AAA', 55)]));

    const series = await store.countrySeries('AAA', { from: new Date(t), to: new Date(t + DAY) });
    expect(series.map((r) => [r.asOf.toISOString(), r.risk])).toEqual([
      [new Date(t).toISOString(), 50],
      [new Date(t + 12 * HOUR).toISOString(), 55],
    ]);
    expect(series[0]?.categories?.security?.score).toBe(50);
    expect(series[0]?.threatVectors).toEqual(['unrest']);
    const seen = await store.countrySeen('BBB');
    expect(seen.first?.getTime()).toBe(t);
    expect(seen.last?.getTime()).toBe(t);
  });

  it('stores every field of a country row as given, unknowns as null', async () => {
    const t = era(12);
    // Every number different, so a field stored in another's column shows.
    const full: CountrySummary = {
      iso: 'FUL',
      name: 'Côte d’Ivoire "full"',
      risk: 61.5,
      tier: 'high',
      static: 33.25,
      active: 28.125,
      delta_active: -1.5,
      delta_headline: 2.75,
      confidence: 0.625,
      profile: 'rising',
      threat_vectors: ['unrest', 'cyber'],
      source_count: 7,
      categories: { security: { score: 70.5, static: 40, active: 30.5, weight: 0.25 } },
    };
    // Untrusted text PostgreSQL cannot hold (a lone surrogate, NUL), in a name and inside the
    // categories: stored as U+FFFD, the batch kept.
    const bare: CountrySummary = { iso: 'BAR', name: 'Bare \ud800' };
    const odd: CountrySummary = {
      iso: 'ODD',
      name: 'Odd\u0000',
      categories: { security: { score: 1, note: 'a\u0000b' } },
    };
    await store.recordBatch(batchRecord(t, [full, bare, odd]));
    const range = { from: new Date(t), to: new Date(t) };
    const [stored] = await store.countrySeries('FUL', range);
    expect(stored).toMatchObject({
      asOf: new Date(t),
      iso: 'FUL',
      name: full.name,
      risk: 61.5,
      tier: 'high',
      static: 33.25,
      active: 28.125,
      deltaActive: -1.5,
      deltaHeadline: 2.75,
      confidence: 0.625,
      profile: 'rising',
      threatVectors: ['unrest', 'cyber'],
      sourceCount: 7,
      categories: full.categories,
    });
    const [empty] = await store.countrySeries('BAR', range);
    expect(empty).toMatchObject({ iso: 'BAR', name: 'Bare \uFFFD', risk: null, tier: null });
    for (const field of ['static', 'active', 'deltaActive', 'deltaHeadline', 'confidence'] as const)
      expect(empty?.[field]).toBeNull();
    expect([empty?.profile, empty?.threatVectors, empty?.sourceCount, empty?.categories]).toEqual([
      null,
      null,
      null,
      null,
    ]);
    const [nul] = await store.countrySeries('ODD', range);
    expect(nul?.name).toBe('Odd\uFFFD');
    expect(nul?.categories).toEqual({ security: { score: 1, note: 'a\uFFFDb' } });
  });

  it('keeps a global-only point and completes it when the batch itself arrives', async () => {
    const t = era(2);
    const point = await store.recordBatch(
      batchRecord(t, [], { source: 'feed_history', global: { ggri: 33 } }),
    );
    expect(point.recorded).toBe(true);
    expect(await store.hasBatch(new Date(t))).toBe(false);
    const full = await store.recordBatch(batchRecord(t, [countryRow('CCC', 10)]));
    expect(full.recorded).toBe(true);
    expect(await store.hasBatch(new Date(t))).toBe(true);
    const [row] = await store.batches({ from: new Date(t), to: new Date(t) });
    expect(row).toMatchObject({ globalIndex: 40, countryCount: 1, source: 'export_json' });
    expect(row?.tierCounts).toEqual({ mod: 1 });
  });

  it('finds the batch in force at a time, and the newest batches with countries', async () => {
    const t = era(3);
    for (let i = 0; i < 3; i += 1) {
      await store.recordBatch(batchRecord(t + i * HOUR, [countryRow('DDD', 10 + i)]));
    }
    await store.recordBatch(batchRecord(t + 3 * HOUR, [], { source: 'feed_history' }));
    const at = await store.batchAtOrBefore(new Date(t + HOUR + 1));
    expect(at?.asOf.getTime()).toBe(t + HOUR);
    expect(await store.batchAtOrBefore(new Date(era(3) - 1 - 50 * DAY))).not.toMatchObject({
      asOf: new Date(t),
    });
    const rows = await store.countryRows(at?.id ?? -1);
    expect(rows.map((r) => r.risk)).toEqual([11]);
  });

  it('archives events once (same URL and time, or same headline and source in a day)', async () => {
    const t = era(4);
    const a = event(t, 'Talks resume');
    const b = event(t + HOUR, 'Protest in capital');
    const sameStory = {
      ...b,
      url: 'https://other.example/x',
      ts: new Date(t + 2 * HOUR).toISOString(),
    };
    const seen = new Date(t + 3 * HOUR);
    expect(await store.archiveEvents('EEE', [a, b, a], seen)).toBe(2);
    expect(await store.archiveEvents('EEE', [a, b, sameStory], seen)).toBe(0);
    // The same event received for another country is archived for that country too.
    expect(await store.archiveEvents('FFF', [a], seen)).toBe(1);
    const nextDay = { ...b, ts: new Date(t + DAY + HOUR).toISOString(), url: null };
    expect(await store.archiveEvents('EEE', [nextDay], seen)).toBe(1);
  });

  it('pages events newest first with a keyset cursor and filters them', async () => {
    const t = era(5);
    const many = Array.from({ length: 7 }, (_, i) =>
      event(t + i * HOUR, `Story ${i}${i % 2 ? ' flood' : ''}`, { breaking: i === 6 }),
    );
    await store.archiveEvents('GGG', many, new Date(t + DAY));
    const range = { from: new Date(t), to: new Date(t + DAY) };
    const base = { isos: ['GGG'], q: null, role: null, breaking: null, ...range };
    const page1 = await store.events({ ...base, before: null, limit: 3 });
    expect(page1.map((e) => e.headline)).toEqual([
      'Story 6',
      'Story 5 flood',
      'Story 4',
      'Story 3 flood',
    ]);
    const last = page1[2];
    const page2 = await store.events({
      ...base,
      before: last ? { ts: last.ts, id: last.id } : null,
      limit: 3,
    });
    expect(page2.map((e) => e.headline)).toEqual([
      'Story 3 flood',
      'Story 2',
      'Story 1 flood',
      'Story 0',
    ]);
    const floods = await store.events({ ...base, q: 'FLOOD', before: null, limit: 10 });
    expect(floods).toHaveLength(3);
    const literal = await store.events({ ...base, q: '%', before: null, limit: 10 });
    expect(literal).toHaveLength(0);
    const breaking = await store.events({ ...base, breaking: true, before: null, limit: 10 });
    expect(breaking.map((e) => e.headline)).toEqual(['Story 6']);
  });

  it('reports coverage and applies retention to batches and events', async () => {
    const before = await store.coverage();
    expect(before.batches).toBeGreaterThan(0);
    expect(before.since).toBe(new Date(era(1)).toISOString());
    const retained = await openTestStore(backend, 30);
    try {
      const now = era(6);
      await retained.recordBatch(batchRecord(now - 40 * DAY, [countryRow('HHH', 1)]));
      await retained.recordBatch(batchRecord(now - DAY, [countryRow('HHH', 2)], { demo: true }));
      await retained.archiveEvents(
        'HHH',
        [event(now - 40 * DAY, 'Old'), event(now - DAY, 'New')],
        new Date(now),
      );
      expect(await retained.prune(now)).toEqual({ batches: 1, events: 1 });
      const coverage = await retained.coverage();
      expect(coverage).toEqual({
        since: new Date(now - DAY).toISOString(),
        latest: new Date(now - DAY).toISOString(),
        batches: 1,
        demo_seeded: true,
      });
      expect((await retained.countrySeries('HHH', { from: null, to: null })).length).toBe(1);
    } finally {
      await retained.close();
    }
  }, 60_000);
});
