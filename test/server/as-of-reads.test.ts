import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AsOfAnswers } from '../../src/server/services/history/as-of-answers.js';
import { HistoryAnswers, type Since } from '../../src/server/services/history/history-answers.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { batchRecord, countryRow, DAY } from '../fixtures/history.js';
import { openAppStore } from '../helpers/history-store.js';

/*
 * What an as-of overview costs the store (issue 22: ≤ 100 ms for a two-year-old batch): a
 * batch's rows are read once for every question about it, and What changed as of a batch finds
 * its two batches by lookups instead of reading the whole global series.
 */
const T0 = Date.UTC(2026, 0, 1, 3);
const AT = [0, 1, 2, 3, 4].map((i) => T0 + i * DAY);
let store: HistoryStore;
/** Calls of the store's reads, by name. */
const calls = new Map<string, number>();

function counting(name: 'countryRows' | 'batches'): void {
  const original = store[name].bind(store) as (...args: never[]) => unknown;
  (store as unknown as Record<string, unknown>)[name] = (...args: never[]) => {
    calls.set(name, (calls.get(name) ?? 0) + 1);
    return original(...args);
  };
}

beforeAll(async () => {
  store = await openAppStore();
  for (const [i, at] of AT.entries()) {
    await store.recordBatch(
      batchRecord(at, [countryRow('AAA', 10 + i * 3), countryRow('BBB', 50 - i, 'high')]),
    );
  }
  counting('countryRows');
  counting('batches');
}, 60_000);
afterAll(() => store?.close());

describe('as of a batch', () => {
  it("reads the batch's rows once for its countries, hotspots and a country", async () => {
    calls.clear();
    const answers = new AsOfAnswers(store);
    const at = new Date(AT[1] ?? 0);
    const countries = (await answers.countries(at)) as { countries: { iso: string }[] };
    const hotspots = (await answers.hotspots(at, { limit: 1, tiers: [], include: [] })) as {
      hotspots: { iso: string }[];
    };
    await answers.country(at, 'AAA');
    expect(countries.countries.map((c) => c.iso)).toEqual(['BBB', 'AAA']);
    expect(hotspots.hotspots.map((c) => c.iso)).toEqual(['BBB']);
    expect(calls.get('countryRows')).toBe(1);
  });

  it('What changed finds its two batches without the global series, as the series would', async () => {
    const latest = new Date(AT[4] ?? 0);
    const cases: [Since, string][] = [
      [{ kind: 'previous' }, 'previous'],
      [{ kind: 'span', ms: 2 * DAY }, '48h'],
      [{ kind: 'time', at: new Date((AT[1] ?? 0) + 1000) }, 'time'],
    ];
    for (const [since, text] of cases) {
      calls.clear();
      const asOf = await new HistoryAnswers(store, () => store.coverage()).changes(
        since,
        text,
        undefined,
        latest,
      );
      expect(calls.get('batches') ?? 0, text).toBe(0);
      const viaSeries = await new HistoryAnswers(store, () => store.coverage()).changes(
        since,
        text,
      );
      expect(asOf, text).toEqual({ ...viaSeries, as_of: latest.toISOString() });
    }
    const past = await new HistoryAnswers(store, () => store.coverage()).changes(
      { kind: 'previous' },
      'previous',
      undefined,
      new Date((AT[2] ?? 0) + 1000),
    );
    expect([past.from_batch?.as_of, past.to_batch?.as_of]).toEqual(
      [AT[1], AT[2]].map((t) => new Date(t ?? 0).toISOString()),
    );
  });
});
