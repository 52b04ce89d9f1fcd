import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CountrySummary } from '../../src/shared/bff-api.js';
import type { HistoryCoverage } from '../../src/shared/history-api.js';
import { HistoryAnswers, type Since } from '../../src/server/services/history/history-answers.js';
import type { HistoryStore, Range } from '../../src/server/store/history-store.js';
import { batchRecord, countryRow, DAY } from '../fixtures/history.js';
import { openTestStore } from '../helpers/history-store.js';

/*
 * Issue 18, point 6: the global and each country's series change only with a batch, so they are
 * held whole per batch revision and every range is sliced from them in memory; /api/changes takes
 * its two batches' rows from a small memo. Asserted here against a real embedded store: a warm
 * range costs no query, a new batch shows at once, a slice is exactly what the store's own
 * ranged query answers, and the memos stay within their caps.
 */
const T0 = Date.UTC(2026, 0, 20, 10);
/** Batches two days apart from 20 January to 11 March: January and February get sealed. */
const TIMES = Array.from({ length: 26 }, (_, i) => T0 + i * 2 * DAY);
const at = (i: number): Date => new Date(TIMES[i] ?? NaN);

function rowsOf(i: number): CountrySummary[] {
  const rows = [{ ...countryRow('AAA', 10 + i), name: i < 12 ? 'Old name' : 'New name' }];
  if (i >= 5) rows.push(countryRow('BBB', 40 - i, i % 3 === 0 ? 'high' : 'mod'));
  if (i < 20) rows.push(countryRow('CCC', 30));
  return rows;
}

let store: HistoryStore;
/** Store calls that read the history, counted where the store is called. */
let reads = 0;
/** Store-query guards taken (each counts against a client's rate and takes a slot). */
let guards = 0;
const guard = () => {
  guards += 1;
  return Promise.resolve(() => undefined);
};
const coverage = (): Promise<HistoryCoverage> => store.coverage();

function countReads(target: HistoryStore): void {
  for (const name of [
    'batches',
    'countryHistory',
    'countrySeen',
    'countryRows',
    'batchAtOrBefore',
    'latestBatches',
    'events',
    'coverage',
  ] as const) {
    const original = (target[name] as (...args: unknown[]) => Promise<unknown>).bind(target);
    (target as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
      reads += 1;
      return original(...args);
    };
  }
}

beforeAll(async () => {
  store = await openTestStore('pglite');
  for (const [i, t] of TIMES.entries()) await store.recordBatch(batchRecord(t, rowsOf(i)));
  // A global-only point between two batches (feed_history): in the global series, not in changes.
  await store.recordBatch(batchRecord(TIMES[3]! + DAY, [], { source: 'feed_history' }));
  countReads(store);
}, 60_000);
afterAll(async () => {
  await store?.close();
});

/** What the store itself answers for a range: the bodies as they were built before the memo. */
async function storeCountry(code: string, range: Range) {
  const history = await store.countryHistory(code, range);
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  return {
    ok: true,
    iso: code,
    name: history.points.at(-1)?.name ?? null,
    from: iso(range.from),
    to: iso(range.to),
    first_seen: iso(history.first),
    last_seen: iso(history.last),
    coverage: await coverage(),
    // No method change among these batches (issue 31).
    method_changes: [],
    points: history.points.map((p) => ({
      as_of: p.as_of,
      risk: p.risk,
      tier: p.tier,
      static: p.static,
      active: p.active,
      confidence: p.confidence,
      categories: p.categories,
    })),
  };
}

async function storeGlobal(range: Range) {
  const rows = await store.batches(range);
  return {
    ok: true,
    from: range.from?.toISOString() ?? null,
    to: range.to?.toISOString() ?? null,
    coverage: await coverage(),
    method_changes: [],
    points: rows.map((row) => ({
      as_of: row.asOf.toISOString(),
      index: row.globalIndex,
      static: row.globalStatic,
      active: row.globalActive,
      events_24h: row.events24h,
      tier: row.globalTier,
      ...(row.tierCounts ? { tier_counts: row.tierCounts } : {}),
    })),
  };
}

const ms = (d: Date, delta: number): Date => new Date(d.getTime() + delta);
/** Edges on batches (inclusive), between them, across month ends, outside the history. */
const RANGES: Range[] = [
  { from: null, to: null },
  { from: at(3), to: null },
  { from: null, to: at(5) },
  { from: at(7), to: at(7) },
  { from: ms(at(7), 1), to: ms(at(9), -1) },
  { from: at(4), to: at(16) },
  { from: ms(at(0), -DAY), to: ms(at(25), DAY) },
  { from: ms(at(25), 1), to: null },
  { from: null, to: ms(at(0), -1) },
  { from: new Date(Date.UTC(2026, 0, 31)), to: new Date(Date.UTC(2026, 1, 2)) },
  { from: at(19), to: at(22) },
];

describe('a range sliced from the held series', () => {
  it('is exactly the body the store answers for that range, edges inclusive', async () => {
    const answers = new HistoryAnswers(store, coverage);
    for (const range of RANGES) {
      for (const code of ['AAA', 'BBB', 'CCC', 'ZZZ']) {
        // The bytes the route sends: the held points' JSON joined into the body.
        const sent = await answers.countryHistoryJson(code, range);
        expect(sent, `${code} ${JSON.stringify(range)}`).toBe(
          JSON.stringify(await storeCountry(code, range)),
        );
      }
      expect(await answers.globalHistoryJson(range)).toBe(JSON.stringify(await storeGlobal(range)));
    }
  });

  it('costs no store query once the series is held, whatever the range', async () => {
    const answers = new HistoryAnswers(store, coverage);
    await answers.countryHistory('AAA', { from: null, to: null });
    await answers.globalHistory({ from: at(1), to: null });
    reads = 0;
    guards = 0;
    for (const range of RANGES) {
      await answers.countryHistory('AAA', range, guard);
      await answers.globalHistory(range, guard);
    }
    expect(reads).toBe(0);
    // Nor is it limited: only a question that reads the store takes its client's guard.
    expect(guards).toBe(0);
    // Another country is read once, then held too.
    await answers.countryHistory('BBB', RANGES[1]!, guard);
    expect(reads).toBeGreaterThan(0);
    expect(guards).toBe(1);
    reads = 0;
    await answers.countryHistory('BBB', RANGES[2]!);
    expect(reads).toBe(0);
  });

  it('a new batch drops what was held: the next answer shows its point', async () => {
    const answers = new HistoryAnswers(store, coverage);
    const next = TIMES.at(-1)! + 2 * DAY;
    const before = await answers.countryHistory('AAA', { from: at(20), to: null });
    await answers.globalHistory({ from: null, to: null });
    await answers.countryHistory('CCC', { from: null, to: null });
    expect(answers.held.series).toBe(3);
    expect(before.points.at(-1)?.as_of).toBe(at(25).toISOString());
    await store.recordBatch(batchRecord(next, [countryRow('AAA', 99)]));
    const after = await answers.countryHistory('AAA', { from: at(20), to: null });
    expect(after.points.at(-1)).toMatchObject({ as_of: new Date(next).toISOString(), risk: 99 });
    expect(after.coverage.latest).toBe(new Date(next).toISOString());
    expect((await answers.globalHistory({ from: at(25), to: null })).points).toHaveLength(2);
    // Only what was asked since the batch is held: the rest was dropped with it.
    expect(answers.held.series).toBe(2);
  });
});

describe('/api/changes from memoised batches', () => {
  it('compares the batches the store picks for each since, and a warm pair costs no query', async () => {
    const answers = new HistoryAnswers(store, coverage);
    const sinces: [Since, string][] = [
      [{ kind: 'previous' }, 'previous'],
      [{ kind: 'span', ms: DAY }, '24h'],
      [{ kind: 'span', ms: 7 * DAY }, '7d'],
      [{ kind: 'span', ms: 1000 * DAY }, 'far'],
      [{ kind: 'time', at: at(10) }, 'on a batch'],
      [{ kind: 'time', at: ms(at(10), -1) }, 'just before one'],
      [{ kind: 'time', at: ms(at(3), DAY) }, 'on the global-only point'],
    ];
    for (const [since, text] of sinces) {
      const body = await answers.changes(since, text);
      const to = await store.batchAtOrBefore(null);
      const from =
        since.kind === 'previous'
          ? ((await store.latestBatches(2))[1] ?? null)
          : await store.batchAtOrBefore(since.kind === 'span' ? ms(to!.asOf, -since.ms) : since.at);
      expect(body.since).toBe(text);
      expect(body.to_batch?.as_of).toBe(to?.asOf.toISOString());
      expect(body.from_batch?.as_of ?? null, text).toBe(from?.asOf.toISOString() ?? null);
    }
    reads = 0;
    guards = 0;
    const again = await answers.changes({ kind: 'time', at: ms(at(10), 5) }, 'later', guard);
    expect(again.from_batch?.as_of).toBe(at(10).toISOString());
    expect(reads).toBe(0);
    expect(guards).toBe(0);
    // A pair not compared yet reads one batch's rows (the newest is held), under one guard.
    await answers.changes({ kind: 'time', at: at(11) }, 'another pair', guard);
    expect(reads).toBe(1);
    expect(guards).toBe(1);
  });
});

describe('the memos are bounded', () => {
  it('holds at most its entries and bytes; what was dropped is read again', async () => {
    const answers = new HistoryAnswers(store, coverage, {
      series: { maxEntries: 2, maxBytes: 1024 * 1024 },
      batchRows: { maxEntries: 1, maxBytes: 1024 * 1024 },
    });
    for (const code of ['AAA', 'BBB', 'CCC']) await answers.countryHistory(code, RANGES[0]!);
    expect(answers.held.series).toBe(2);
    reads = 0;
    await answers.countryHistory('AAA', RANGES[1]!);
    expect(reads).toBeGreaterThan(0);
    await answers.changes({ kind: 'time', at: at(3) }, 'a');
    await answers.changes({ kind: 'time', at: at(4) }, 'b');
    expect(answers.held.batchRows).toBe(1);

    const small = new HistoryAnswers(store, coverage, {
      series: { maxEntries: 100, maxBytes: 12 * 1024 },
      batchRows: { maxEntries: 100, maxBytes: 12 * 1024 },
    });
    for (const code of ['AAA', 'BBB', 'CCC']) await small.countryHistory(code, RANGES[0]!);
    expect(small.held.seriesBytes).toBeGreaterThan(0);
    expect(small.held.seriesBytes).toBeLessThanOrEqual(12 * 1024);
    expect(small.held.series).toBeLessThan(3);
  });
});
