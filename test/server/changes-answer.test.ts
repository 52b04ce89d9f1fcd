import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CountrySummary } from '../../src/shared/bff-api.js';
import type { HistoryCoverage } from '../../src/shared/history-api.js';
import { HistoryAnswers } from '../../src/server/services/history/history-answers.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { batchRecord, countryRow, DAY } from '../fixtures/history.js';
import { openAppStore } from '../helpers/history-store.js';

/*
 * What /api/changes answers, built from a real (embedded) store: which two batches it compares
 * for each `since`, the direction of a tier move, the deltas and their order. Each case here was
 * a one-line change of history-answers.ts that no test caught.
 */
const T0 = Date.UTC(2026, 2, 1, 3);
const coverage = (): Promise<HistoryCoverage> =>
  Promise.resolve({ first: null, last: null, batches: 0 } as unknown as HistoryCoverage);

function row(
  iso: string,
  risk: number | null,
  tier: string | null,
  categories: CountrySummary['categories'] = null,
): CountrySummary {
  return { ...countryRow(iso, risk ?? 0, tier ?? 'mod'), risk, tier, categories };
}

let store: HistoryStore;
let answers: HistoryAnswers;
/**
 * Answers with empty memos: a case that asserts what a comparison holds builds it itself, rather
 * than read the one an earlier case left in the shared memo (Stryker's per-test coverage credits
 * a line to the cases that ran it, so a memoised answer hid these cases from its mutants).
 */
const fresh = () => new HistoryAnswers(store, coverage);
beforeAll(async () => {
  store = await openAppStore();
  answers = new HistoryAnswers(store, coverage);
}, 60_000);
afterAll(async () => {
  await store?.close();
});

describe('before there are two batches', () => {
  it('with no batch, and with one, compares nothing', async () => {
    const empty = await answers.changes({ kind: 'previous' }, 'previous');
    expect(empty).toMatchObject({ from_batch: null, to_batch: null, countries: [] });
    await store.recordBatch(batchRecord(T0, [row('AAA', 10, 'low')]));
    const one = await answers.changes({ kind: 'previous' }, 'previous');
    expect(one).toMatchObject({
      from_batch: null,
      to_batch: { as_of: new Date(T0).toISOString() },
      countries: [],
      entered: [],
      left: [],
    });
  });
});

const cat = (score: number | null, active: number | null) => ({
  score,
  active,
  static: 1,
  weight: 0.1,
});

describe('with three batches a day apart', () => {
  beforeAll(async () => {
    await store.recordBatch(
      batchRecord(T0 + DAY, [
        row('AAA', 20, 'low'),
        row('BBB', 55, 'high'),
        row('CCC', 40, 'mod'),
        row('OLD', 5, 'low'),
        row('YYY', 20, 'low'),
        row('ZZZ', 10, 'low'),
        row('NUL', null, null),
        row('CAT', 10, 'low', {
          a: cat(10, 5),
          b: cat(10, 5),
          c: cat(10, 5),
          d: cat(10, 5),
          e: cat(10, 5),
          f: cat(null, 5),
        }),
        row('CNA', 10, 'low', null),
        row('CNB', 10, 'low', { a: cat(10, 5) }),
        row('CAU', 10, 'low', { a: cat(10, 5), b: cat(10, 5) }),
      ]),
    );
    await store.recordBatch(
      batchRecord(T0 + 2 * DAY, [
        row('AAA', 70.126, 'high'),
        row('BBB', 30, 'mod'),
        row('CCC', 40, 'weird'),
        row('NEW', 1, 'low'),
        row('ANT', 1, 'low'),
        row('YYY', 15, 'low'),
        row('ZZZ', 15, 'low'),
        row('NUL', 5, 'low'),
        row('CAT', 11, 'low', {
          a: cat(12, 5), // +2
          b: cat(5, 1), // −5
          c: cat(10, 9), // unchanged score
          d: cat(13, null), // +3, active unknown now
          e: cat(8, 5), // −2: ties with a, and a comes first
          f: cat(20, 5), // no score before
          g: cat(50, 5), // a new category
        }),
        row('CNA', 10, 'low', { a: cat(10, 5) }),
        row('CNB', 10, 'low', null),
        // One move, one unchanged score, one new category: only the move is named.
        row('CAU', 10, 'low', { a: cat(12, 6), b: cat(10, 5), c: cat(5, 5) }),
      ]),
    );
  });

  it('"previous" compares the newest batch with the one just before it', async () => {
    const body = await answers.changes({ kind: 'previous' }, 'previous');
    expect(body.ok).toBe(true);
    expect(body.since).toBe('previous');
    expect(body.from_batch).toMatchObject({ as_of: new Date(T0 + DAY).toISOString() });
    expect(body.to_batch).toMatchObject({ as_of: new Date(T0 + 2 * DAY).toISOString() });
  });

  it('a span counts back from the newest batch; a time takes the batch at or before it', async () => {
    const span = await answers.changes({ kind: 'span', ms: 2 * DAY }, '48h');
    expect(span.from_batch).toMatchObject({ as_of: new Date(T0).toISOString() });
    const time = await answers.changes({ kind: 'time', at: new Date(T0 + DAY + 1) }, 'time');
    expect(time.from_batch).toMatchObject({ as_of: new Date(T0 + DAY).toISOString() });
    expect(time.countries.find((c) => c.iso === 'AAA')?.then.risk).toBe(20);
  });

  it('tier moves: towards more severe is up, towards less severe is down, unknown is none', async () => {
    const body = await fresh().changes({ kind: 'previous' }, 'previous');
    const move = (iso: string) => body.countries.find((c) => c.iso === iso)?.tier_change;
    expect(move('AAA')).toBe('up'); // low → high
    expect(move('BBB')).toBe('down'); // high → mod
    expect(move('CCC')).toBeNull(); // mod → an unknown label
    expect(move('NUL')).toBeNull(); // no tier → low
    expect(move('YYY')).toBeNull(); // low → low
  });

  it('deltas are now minus then, to two decimals, largest move first, ties by code', async () => {
    const body = await fresh().changes({ kind: 'previous' }, 'previous');
    expect(body.countries.map((c) => [c.iso, c.delta_risk])).toEqual([
      ['AAA', 50.13],
      ['BBB', -25],
      ['YYY', -5],
      ['ZZZ', 5],
      ['CAT', 1],
      ['CAU', 0],
      ['CCC', 0],
      ['CNA', 0],
      ['CNB', 0],
      ['NUL', null], // no risk before: no delta
    ]);
    expect(body.countries[0]).toMatchObject({
      name: 'Country AAA',
      then: { risk: 20, tier: 'low', static: 12, active: 8 },
      now: { risk: 70.126, tier: 'high' },
      delta_active: 20.05,
    });
  });

  it('names the three largest category moves, skipping unchanged and new categories', async () => {
    const body = await fresh().changes({ kind: 'previous' }, 'previous');
    const moves = (iso: string) => body.countries.find((c) => c.iso === iso)?.top_categories;
    expect(moves('CAT')).toEqual([
      { category: 'b', delta: -5, delta_active: -4 },
      { category: 'd', delta: 3, delta_active: null },
      { category: 'a', delta: 2, delta_active: 0 },
    ]);
    expect(moves('CAU')).toEqual([{ category: 'a', delta: 2, delta_active: 1 }]);
    expect(moves('CNA')).toEqual([]); // no categories before
    expect(moves('CNB')).toEqual([]); // no categories now
  });

  it('countries that appeared or went are listed by code', async () => {
    const body = await fresh().changes({ kind: 'previous' }, 'previous');
    expect(body.entered).toEqual([
      { iso: 'ANT', name: 'Country ANT' },
      { iso: 'NEW', name: 'Country NEW' },
    ]);
    expect(body.left).toEqual([{ iso: 'OLD', name: 'Country OLD' }]);
  });

  it('each `since` is its own answer between two batches', async () => {
    const previous = await answers.changes({ kind: 'previous' }, 'previous');
    const span = await answers.changes({ kind: 'span', ms: 2 * DAY }, '48h');
    expect(previous.since).toBe('previous');
    expect(span.since).toBe('48h');
    expect(span.from_batch).not.toEqual(previous.from_batch);
  });
});
