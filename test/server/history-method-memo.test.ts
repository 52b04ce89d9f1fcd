import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MethodChanges } from '../../src/server/services/batches/method-changes.js';
import { MoveExplanations } from '../../src/server/services/history/explain.js';
import { HistoryAnswers } from '../../src/server/services/history/history-answers.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { batchRecord, countryRow, DAY } from '../fixtures/history.js';
import { openTestStore } from '../helpers/history-store.js';

/*
 * Issue 31, point 4 of the method round: the method changes every history, changes and
 * explain answer carries are held with the series (one memo entry per store revision), so an
 * answer from what is held asks the store nothing; an admin's "comparable" shows at once.
 * Counted at the database: every statement the store's query builder starts.
 */
const T0 = Date.UTC(2026, 10, 1, 3);
const METHODS = ['m3', 'm3', 'm4'];

let store: HistoryStore;
let answers: HistoryAnswers;
let explanations: MoveExplanations;
let statements = 0;

/** Counts every statement started on the store's database (raw SQL and the query builder). */
function countStatements(target: HistoryStore): void {
  const db = target.db as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of ['execute', 'select', 'selectDistinct', 'insert', 'update', 'delete']) {
    const original = db[name]?.bind(db);
    if (!original) continue;
    db[name] = (...args: unknown[]) => {
      statements += 1;
      return original(...args);
    };
  }
}

beforeAll(async () => {
  store = await openTestStore('pglite');
  for (const [i, method] of METHODS.entries()) {
    await store.recordBatch(
      batchRecord(T0 + i * DAY, [countryRow('AAA', 50 - i * 10)], { methodologyVersion: method }),
    );
  }
  answers = new HistoryAnswers(store, () => store.coverage());
  explanations = new MoveExplanations(store, () => answers.methodMarks());
  countStatements(store);
}, 60_000);
afterAll(() => store?.close());

const all = { from: null, to: null };
const change = (comparable: boolean) => ({
  as_of: new Date(T0 + 2 * DAY).toISOString(),
  from: 'm3',
  to: 'm4',
  comparable,
});

describe('method changes in the history answers', () => {
  it('are read once per store revision: warm answers ask the store nothing', async () => {
    // Cold: each builds what it needs once.
    await answers.globalHistory(all);
    await answers.countryHistory('AAA', all);
    await answers.changes({ kind: 'previous' }, 'previous');
    await answers.methodMarks();
    statements = 0;
    const global = await answers.globalHistory(all);
    const country = await answers.countryHistory('AAA', all);
    const changes = await answers.changes({ kind: 'previous' }, 'previous');
    expect(statements).toBe(0);
    expect(global.method_changes).toEqual([change(false)]);
    expect(country.method_changes).toEqual([change(false)]);
    expect(changes.method_changes).toEqual([change(false)]);
    // An explanation asks for its batches and rows, but not for the method changes again.
    const before = statements;
    const explained = (await explanations.explain('AAA', null, null)) as {
      method_changes: unknown[];
    };
    expect(explained.method_changes).toEqual([change(false)]);
    const again = statements - before;
    statements = 0;
    await explanations.explain('AAA', null, null);
    expect(statements).toBe(again);
    await answers.methodMarks();
    expect(statements).toBe(again);
  });

  it("shows an admin's 'comparable' in the next answer", async () => {
    const [, , changed] = await store.batches(all);
    const digest = (await store.chainIds([changed!.id])).get(changed!.id);
    expect(digest).toBeDefined();
    const methods = new MethodChanges(store, {
      now: () => T0 + 3 * DAY,
      releaseHeld: () => Promise.resolve(0),
    });
    await methods.markComparable(digest!, 'admin');
    expect((await answers.countryHistory('AAA', all)).method_changes).toEqual([change(true)]);
  });
});
