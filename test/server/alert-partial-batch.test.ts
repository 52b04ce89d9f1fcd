import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BEFORE_LOOKBACK_MS } from '../../src/server/services/alerts/alert-views.js';
import { RuleBacktest } from '../../src/server/services/alerts/backtest.js';
import { selectAlerts } from '../../src/server/store/alerts.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { batchRecord, countryRow, HOUR } from '../fixtures/history.js';
import { openAppStore } from '../helpers/history-store.js';
import { insertList, quietEvaluator } from '../helpers/synthetic-batches.js';

/*
 * A batch recorded from the top-50 hotspots alone (its export could no longer be had) lacks the
 * other countries. The rules comparing two batches then compare each of those with its latest row
 * of the week before, so a tier change across the partial batch still alerts, once, and says
 * which batch it was measured from; the backtest compares the same way.
 */
let store: HistoryStore;
beforeAll(async () => {
  store = await openAppStore();
}, 60_000);
afterAll(async () => {
  await store?.close();
});

const tierWatch = (name: string, iso: string) =>
  insertList(store, {
    name,
    countries: [iso],
    rules: [{ kind: 'tier_change', direction: 'both' }],
  });

const alertsOf = (watchlistId: number) =>
  selectAlerts(store.db, {
    watchlistIds: [watchlistId],
    unreadOnly: false,
    iso: null,
    before: null,
    limit: 100,
  });

describe('a batch that lacks a country', () => {
  it('does not swallow its tier change: the next batch compares with its last known row', async () => {
    const t0 = Date.UTC(2026, 4, 1, 0);
    let now = t0;
    const evaluator = quietEvaluator(store, () => now);
    const quiet = await tierWatch('Quiet country', 'AAA');
    const gone = await tierWatch('Long gone', 'CCC');

    // CCC is last seen more than a week before the partial batch: too old to compare with.
    const old = t0 - BEFORE_LOOKBACK_MS - 12 * HOUR;
    await store.recordBatch(batchRecord(old, [countryRow('CCC', 20, 'low')]));
    await store.recordBatch(
      batchRecord(t0, [countryRow('AAA', 20, 'low'), countryRow('BBB', 80, 'high')]),
    );
    await store.recordBatch(
      batchRecord(t0 + 12 * HOUR, [countryRow('BBB', 81, 'high')], { source: 'hotspots' }),
    );
    await store.recordBatch(
      batchRecord(t0 + 24 * HOUR, [
        countryRow('AAA', 70, 'high'),
        countryRow('BBB', 81, 'high'),
        countryRow('CCC', 75, 'high'),
      ]),
    );
    now = t0 + 24 * HOUR;
    await evaluator.evaluatePending();

    const [change, ...more] = await alertsOf(quiet);
    expect(more).toEqual([]);
    expect(change).toMatchObject({ kind: 'tier_change', iso: 'AAA' });
    expect(change!.batchAsOf.getTime()).toBe(t0 + 24 * HOUR);
    // Measured from the last batch that had AAA, and the alert's numbers say so.
    expect(change!.before).toMatchObject({ as_of: new Date(t0).toISOString(), tier: 'low' });
    expect(change!.after).toMatchObject({ tier: 'high' });
    expect(await alertsOf(gone)).toEqual([]);

    // A second pass finds nothing left to do and adds nothing.
    await evaluator.evaluatePending();
    expect(await alertsOf(quiet)).toHaveLength(1);
  });

  it('says which batch an active move is measured from, and the backtest counts it the same', async () => {
    const t1 = Date.UTC(2026, 5, 1, 0);
    let now = t1;
    const evaluator = quietEvaluator(store, () => now);
    const rules = [
      { kind: 'active_change' as const, min_abs_delta: 10 },
      { kind: 'tier_change' as const, direction: 'both' as const },
    ];
    const list = await insertList(store, { name: 'Moves', countries: ['DDD'], rules });
    // Active 8.0 → 28.0 across a batch recorded from the hotspots alone, without DDD.
    await store.recordBatch(batchRecord(t1, [countryRow('DDD', 20, 'low')]));
    await store.recordBatch(
      batchRecord(t1 + 12 * HOUR, [countryRow('BBB', 81, 'high')], { source: 'hotspots' }),
    );
    await store.recordBatch(batchRecord(t1 + 24 * HOUR, [countryRow('DDD', 70, 'high')]));
    now = t1 + 24 * HOUR;
    await evaluator.evaluatePending();

    const live = await alertsOf(list);
    const active = live.find((alert) => alert.kind === 'active_change');
    expect(active?.message).toBe(
      'Active +20.0 (8.0 → 28.0) since the batch of 2026-06-01 00:00 UTC: at least 10 either way',
    );
    expect(live.map((alert) => alert.kind).sort()).toEqual(['active_change', 'tier_change']);

    const tried = await new RuleBacktest(store.db).run(['DDD'], rules);
    const after = new Date(t1 + 24 * HOUR).toISOString();
    expect(tried.countries[0]?.rules.map((rule) => [rule.rule, rule.batches])).toEqual([
      ['active_change:10', [after]],
      ['tier_change:both', [after]],
    ]);
    expect(tried.countries[0]?.suggested_min_abs_delta).toBe(20);
    expect(tried.last_90_days.alerts.map((alert) => alert.message)).toContain(active?.message);
  });

  it('never reaches back across a method change the partial batch made', async () => {
    const t2 = Date.UTC(2026, 6, 1, 0);
    let now = t2;
    const evaluator = quietEvaluator(store, () => now);
    const rules = [
      { kind: 'active_change' as const, min_abs_delta: 10 },
      { kind: 'tier_change' as const, direction: 'both' as const },
    ];
    const list = await insertList(store, { name: 'Across a method', countries: ['EEE'], rules });
    await store.recordBatch(batchRecord(t2, [countryRow('EEE', 20, 'low')]));
    // The provider's new method arrives with a batch recorded from the hotspots, without EEE.
    const newMethod = { methodologyVersion: 'v-rescaled' };
    await store.recordBatch(
      batchRecord(t2 + 12 * HOUR, [countryRow('BBB', 50, 'mod')], {
        source: 'hotspots',
        ...newMethod,
      }),
    );
    await store.recordBatch(
      batchRecord(t2 + 24 * HOUR, [countryRow('EEE', 70, 'high')], newMethod),
    );
    now = t2 + 24 * HOUR;
    await evaluator.evaluatePending();
    expect(await alertsOf(list)).toEqual([]);

    const tried = await new RuleBacktest(store.db).run(['EEE'], rules);
    expect(tried.countries[0]?.rules.map((rule) => rule.count)).toEqual([0, 0]);
    expect(tried.countries[0]?.suggested_min_abs_delta).toBeNull();
  });
});
