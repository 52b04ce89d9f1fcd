import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertRule } from '../../src/shared/alerts-api.js';
import { backtestResponseSchema } from '../../src/shared/backtest-api.js';
import type { CountrySummary } from '../../src/shared/bff-api.js';
import { RuleBacktest } from '../../src/server/services/alerts/backtest.js';
import { insertComparable } from '../../src/server/store/method-changes.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { batchRecord, countryRow, DAY, event } from '../fixtures/history.js';
import { openTestStore } from '../helpers/history-store.js';

/*
 * Issue 31: a backtest never counts a method change as a move. Four batches of AAA, the third
 * under a new method (every score × 0.6: active 50 → 30), the fourth a real move (+15) under it:
 *
 *   batch   method  active  Δ active        active_change:10 fires
 *   0       m3      40      -
 *   1       m3      50      +10             yes
 *   2       m4      30      -20 (method)    held, as the live evaluator holds it
 *   3       m4      45      +15             yes
 *
 * A breaking event between batches 1 and 2 fires as usual. Marked comparable, batch 2 fires.
 */
const T = Date.UTC(2026, 10, 1, 3);
const AT = [T - 3 * DAY, T - 2 * DAY, T - DAY, T];
const ACTIVE = [40, 50, 30, 45];
const METHOD = ['m3', 'm3', 'm4', 'm4'];
const RULES: AlertRule[] = [
  { kind: 'active_change', min_abs_delta: 10 },
  { kind: 'breaking_event' },
];
const iso = (i: number) => new Date(AT[i] ?? 0).toISOString();

function row(active: number): CountrySummary {
  return { ...countryRow('AAA', active + 20, 'high'), active };
}

let store: HistoryStore;
beforeAll(async () => {
  store = await openTestStore('pglite');
  for (const [i, at] of AT.entries()) {
    await store.recordBatch(
      batchRecord(at, [row(ACTIVE[i] ?? 0)], { methodologyVersion: METHOD[i] ?? null }),
    );
  }
  await store.archiveEvents(
    'AAA',
    [event(AT[1]! + DAY / 2, 'Clashes near the border', { breaking: true })],
    new Date(AT[1]! + DAY / 2),
  );
}, 60_000);
afterAll(() => store?.close());

const run = async () =>
  backtestResponseSchema.parse(await new RuleBacktest(store.db).run(['AAA'], RULES));

describe('a backtest across a method change', () => {
  it('holds the batch-comparing rules there, says so, and leaves the jump out of the threshold', async () => {
    const result = await run();
    const aaa = result.countries[0];
    expect(aaa?.rules.find((r) => r.rule === 'active_change:10')?.batches).toEqual([
      iso(3),
      iso(1),
    ]);
    expect(aaa?.rules.find((r) => r.rule === 'breaking_event')?.batches).toEqual([iso(2)]);
    expect(result.method_changes).toEqual([
      { as_of: iso(2), from: 'm3', to: 'm4', comparable: false, held_firings: 1 },
    ]);
    // |Δ active| of 10 and 15 only: the method's 20 is not volatility.
    expect(aaa?.suggested_min_abs_delta).toBe(15);
    expect(aaa?.batches).toBe(4);
  });

  it('counts the change as a move once an admin marked it comparable', async () => {
    const [, , changed] = await store.batches({ from: null, to: null });
    await insertComparable(store.db, changed!.id, 'admin', new Date(T));
    const result = await run();
    expect(result.countries[0]?.rules.find((r) => r.rule === 'active_change:10')?.batches).toEqual([
      iso(3),
      iso(2),
      iso(1),
    ]);
    expect(result.method_changes).toEqual([]);
  });
});
