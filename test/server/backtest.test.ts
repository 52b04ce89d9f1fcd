import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertRule } from '../../src/shared/alerts-api.js';
import { backtestResponseSchema, type BacktestResponse } from '../../src/shared/backtest-api.js';
import type { CountrySummary } from '../../src/shared/bff-api.js';
import { AlertEvaluator } from '../../src/server/jobs/alert-evaluator.js';
import { rowsOf } from '../../src/server/store/connection.js';
import { RuleBacktest } from '../../src/server/services/alerts/backtest.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { batchRecord, countryRow, DAY, event } from '../fixtures/history.js';
import { openAppStore } from '../helpers/history-store.js';
import { insertList } from '../helpers/synthetic-batches.js';
import { startHistoryStack, type HistoryStack } from '../helpers/history-stack.js';

/*
 * Rules tried on a hand-computed history of six batches (see the table): the counts, the
 * batches, the last 90 days and the suggested threshold are worked out by hand below, and the
 * live evaluator run over the same history raises exactly the alerts the backtest counts.
 */
const T = Date.UTC(2026, 10, 1, 3);
/** Batch times: two long ago, four within the last 90 days of the newest. */
const AT = [T - 300 * DAY, T - 200 * DAY, T - 60 * DAY, T - 40 * DAY, T - 20 * DAY, T];
const AAA = [
  { active: 10, risk: 40, tier: 'mod' },
  { active: 22, risk: 52, tier: 'high' },
  { active: 20, risk: 49, tier: 'mod' },
  { active: 35, risk: 61, tier: 'high' },
  { active: 35, risk: 58, tier: 'high' },
  { active: 50, risk: 70, tier: 'crit' },
];
/** BBB is missing from the third batch. */
const BBB = [5, 5, null, 30, 30, 18];
const RULES: AlertRule[] = [
  { kind: 'active_change', min_abs_delta: 10 },
  { kind: 'risk_threshold', threshold: 50, direction: 'up' },
  { kind: 'tier_change', direction: 'up' },
  { kind: 'breaking_event' },
];

function row(iso: string, numbers: { active: number; risk: number; tier: string }): CountrySummary {
  return { ...countryRow(iso, numbers.risk, numbers.tier), ...numbers };
}

let store: HistoryStore;
let result: BacktestResponse;
const iso = (i: number) => new Date(AT[i] ?? 0).toISOString();

beforeAll(async () => {
  store = await openAppStore();
  for (const [i, at] of AT.entries()) {
    const a = AAA[i];
    const b = BBB[i];
    const rows = [row('AAA', a ?? { active: 0, risk: 0, tier: 'low' })];
    if (b != null) rows.push(row('BBB', { active: b, risk: 20, tier: 'low' }));
    await store.recordBatch(batchRecord(at, rows));
  }
  // One breaking event of AAA between the fourth and fifth batches (and one not breaking).
  const fourth = T - 40 * DAY;
  await store.archiveEvents(
    'AAA',
    [
      event(fourth + DAY, 'Clashes near the border', { breaking: true }),
      event(fourth + 2 * DAY, 'Markets calm'),
    ],
    new Date(fourth + 2 * DAY),
  );
  result = backtestResponseSchema.parse(
    await new RuleBacktest(store.db).run(['AAA', 'BBB'], RULES),
  );
}, 60_000);
afterAll(() => store?.close());

const ruleOf = (country: string, key: string) =>
  result.countries.find((c) => c.iso === country)?.rules.find((r) => r.rule === key);

describe('a backtest over a hand-computed history', () => {
  it('counts each rule per country, with the batches it fired in (newest first)', () => {
    expect(result).toMatchObject({ from: iso(0), to: iso(5), batches: 6 });
    // AAA: Δ active 12, 2, 15, 0, 15 → fires in batches 1, 3 and 5.
    expect(ruleOf('AAA', 'active_change:10')).toMatchObject({
      count: 3,
      batches: [iso(5), iso(3), iso(1)],
    });
    // Risk 40→52 and 49→61 cross 50 upwards; 52→49 crosses down (not asked), 58→70 crosses nothing.
    expect(ruleOf('AAA', 'risk_threshold:50:up')).toMatchObject({
      count: 2,
      batches: [iso(3), iso(1)],
    });
    // mod→high, high→mod (down), mod→high, high→high, high→crit.
    expect(ruleOf('AAA', 'tier_change:up')?.count).toBe(3);
    expect(ruleOf('AAA', 'breaking_event')).toMatchObject({ count: 1, batches: [iso(4)] });
    // BBB: 5→5, missing, (no batch before: nothing), 30→30, 30→18 → only the last.
    expect(ruleOf('BBB', 'active_change:10')).toMatchObject({ count: 1, batches: [iso(5)] });
    expect(result.countries.find((c) => c.iso === 'BBB')?.batches).toBe(5);
  });

  it('what the last 90 days would have sent', () => {
    // Batches 2–5 are within 90 days: AAA 3 (batch 3) + 1 breaking (4) + 2 (5), BBB 1 (5).
    expect(result.last_90_days.since).toBe(new Date(T - 90 * DAY).toISOString());
    expect(result.last_90_days.count).toBe(7);
    expect(ruleOf('AAA', 'active_change:10')?.last_90_days).toBe(2);
    expect(result.last_90_days.alerts[0]).toMatchObject({ as_of: iso(5) });
    expect(result.last_90_days.alerts.at(-1)).toMatchObject({ as_of: iso(3), iso: 'AAA' });
  });

  it('suggests the 95th percentile of the batch-to-batch |Δ active| per country', () => {
    // AAA: 0, 2, 12, 15, 15 → the 5th of 5. BBB: 0, 0, 12 → the 3rd of 3.
    const suggested = Object.fromEntries(
      result.countries.map((c) => [c.iso, c.suggested_min_abs_delta]),
    );
    expect(suggested).toEqual({ AAA: 15, BBB: 12 });
  });

  it('raises exactly what the live evaluation raises over the same batches', async () => {
    const listId = await insertList(store, {
      name: 'Both',
      countries: ['AAA', 'BBB'],
      rules: RULES,
    });
    const silent = { info() {}, warn() {}, error() {} } as never;
    const evaluator = new AlertEvaluator({
      db: store.db,
      now: () => T + DAY,
      logger: silent,
      linkBase: null,
      emailEnabled: false,
    });
    await evaluator.backfill(listId);
    const live = rowsOf(
      await store.db.execute(
        sql`select iso, rule_key, batch_as_of from alerts where watchlist_id = ${listId}`,
      ),
    ).map(
      (r) =>
        `${String(r.iso)}|${String(r.rule_key)}|${new Date(String(r.batch_as_of)).toISOString()}`,
    );
    const tried = result.countries.flatMap((c) =>
      c.rules.flatMap((r) => r.batches.map((at) => `${c.iso}|${r.rule}|${at}`)),
    );
    expect(live.sort()).toEqual(tried.sort());
  });
});

describe('POST /api/watchlists/backtest', () => {
  let stack: HistoryStack;
  let other: HistoryStore;
  beforeAll(async () => {
    other = await openAppStore();
    stack = await startHistoryStack(other, { start: Date.UTC(2026, 5, 1, 12) });
    await stack.nextBatch();
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
    await other?.close();
  });

  const post = (payload: unknown) =>
    stack.app.inject({
      method: 'POST',
      url: '/api/watchlists/backtest',
      payload: payload as object,
    });

  it('takes countries and rules, or a saved list, and refuses anything else in words', async () => {
    const typed = await post({ countries: ['ukr', 'MLI'], rules: RULES.slice(0, 1) });
    expect(typed.statusCode).toBe(200);
    const body = backtestResponseSchema.parse(typed.json());
    expect(body.countries.map((c) => c.iso)).toEqual(['UKR', 'MLI']);
    expect(body.batches).toBeGreaterThanOrEqual(2);
    const listId = await insertList(other, { name: 'Saved', countries: ['UKR'], rules: RULES });
    const saved = await post({ watchlist_id: String(listId) });
    expect(backtestResponseSchema.parse(saved.json()).rules).toHaveLength(4);
    const missing = await post({ watchlist_id: '999999' });
    expect(missing.statusCode).toBe(404);
    const bad = await post({
      countries: ['UKR'],
      rules: [{ kind: 'active_change', min_abs_delta: 0 }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/min_abs_delta must be at least 0.1/);
    const wrongCode = await post({ countries: ['UK'], rules: RULES.slice(0, 1) });
    expect(wrongCode.json().error).toMatch(/not an ISO 3166-1 alpha-3 code/);
  });
});

describe('the numbers warmed after start-up', () => {
  it('are read before any backtest: a row changed afterwards is not read again', async () => {
    const backtest = new RuleBacktest(store.db);
    await backtest.warm();
    // Rows are immutable once recorded; a hand edit after the warm-up is proof of no re-read.
    await store.db.execute(sql`update country_rows set active = 99 where iso = 'BBB'`);
    try {
      const warmed = backtestResponseSchema.parse(await backtest.run(['AAA', 'BBB'], RULES));
      expect(warmed.countries).toEqual(result.countries);
      const cold = await new RuleBacktest(store.db).run(['BBB'], RULES);
      expect(cold.countries[0]?.suggested_min_abs_delta).not.toBe(
        result.countries.find((c) => c.iso === 'BBB')?.suggested_min_abs_delta,
      );
    } finally {
      for (const [i, active] of BBB.entries()) {
        if (active === null) continue;
        await store.db.execute(
          sql`update country_rows set active = ${active} where iso = 'BBB' and as_of = ${new Date(AT[i] ?? 0).toISOString()}`,
        );
      }
    }
  });
});
