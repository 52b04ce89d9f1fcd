import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ruleKey, type Alert, type AlertRule } from '../../src/shared/alerts-api.js';
import { AlertEvaluator } from '../../src/server/jobs/alert-evaluator.js';
import { Secret } from '../../src/server/secret.js';
import { HistoryStore } from '../../src/server/store/history-store.js';
import { compareTiers } from '../../src/shared/tiers.js';
import { freshPostgresDatabase, openAppStore } from '../helpers/history-store.js';
import { startHistoryStack, type HistoryStack } from '../helpers/history-stack.js';

/*
 * Alert rules evaluated once per new batch: batches advanced by the demo upstream's batch clock
 * and recorded by the BFF's own watch; the expected alerts are computed here from the recorded
 * rows, independently of the evaluator. A restart, and a second evaluator racing the first on
 * the same PostgreSQL database, add nothing.
 */
const start = Date.UTC(2026, 3, 1, 8, 0, 0);
const RULES: AlertRule[] = [
  { kind: 'active_change', min_abs_delta: 10 },
  { kind: 'active_change', min_abs_delta: 1 },
  { kind: 'tier_change', direction: 'both' },
  { kind: 'risk_threshold', threshold: 50, direction: 'both' },
];

type Row = { iso: string; active: number | null; tier: string | null; risk: number | null };

function expectedAlerts(batches: Row[][]): Set<string> {
  const out = new Set<string>();
  for (let i = 1; i < batches.length; i += 1) {
    const before = new Map(batches[i - 1]!.map((r) => [r.iso, r]));
    for (const after of batches[i]!) {
      const prior = before.get(after.iso);
      if (!prior) continue;
      const add = (rule: AlertRule) => out.add(`${i}|${ruleKey(rule)}|${after.iso}`);
      if (prior.active !== null && after.active !== null) {
        const delta = Math.abs(after.active - prior.active);
        if (delta >= 10) add(RULES[0]!);
        if (delta >= 1) add(RULES[1]!);
      }
      if (prior.tier && after.tier && compareTiers(prior.tier, after.tier) !== 0) add(RULES[2]!);
      if (prior.risk !== null && after.risk !== null && prior.risk < 50 !== after.risk < 50)
        add(RULES[3]!);
    }
  }
  return out;
}

describe('evaluation once per new batch', () => {
  let store: HistoryStore;
  let stack: HistoryStack;
  let watched: string[];
  let listId: string;

  beforeAll(async () => {
    store = await openAppStore();
    stack = await startHistoryStack(store, { start });
    await stack.bff.alertsIdle();
    const [first] = await store.latestBatches(1);
    watched = (await store.countryRows(first!.id))
      .map((r) => r.iso)
      .sort()
      .slice(0, 100);
    const created = await stack.app.inject({
      method: 'POST',
      url: '/api/watchlists',
      payload: { name: 'Everything', countries: watched, rules: RULES },
    });
    expect(created.statusCode).toBe(201);
    listId = created.json().watchlist.id;
    for (let i = 0; i < 3; i += 1) {
      await stack.nextBatch();
      await stack.bff.alertsIdle();
    }
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
    await store?.close();
  });

  async function allAlerts(app = stack.app): Promise<Alert[]> {
    const res = await app.inject({ url: '/api/alerts?limit=200' });
    expect(res.statusCode).toBe(200);
    const alerts: Alert[] = res.json().alerts;
    let cursor = res.json().next_cursor;
    while (cursor) {
      const page = (await app.inject({ url: `/api/alerts?limit=200&cursor=${cursor}` })).json();
      alerts.push(...page.alerts);
      cursor = page.next_cursor;
    }
    return alerts;
  }

  it('raises exactly the alerts the recorded batches call for, each saying why', async () => {
    const batches = (await store.latestBatches(4)).reverse();
    expect(batches).toHaveLength(4);
    const rows = await Promise.all(
      batches.map(async (b) =>
        (await store.countryRows(b.id)).filter((r) => watched.includes(r.iso)),
      ),
    );
    const expected = expectedAlerts(rows);
    expect([...expected].some((k) => k.includes('|active_change:1|'))).toBe(true);
    const index = new Map(batches.map((b, i) => [b.asOf.toISOString(), i]));
    const alerts = await allAlerts();
    const got = alerts.map((a) => `${index.get(a.batch_as_of)}|${a.rule}|${a.iso}`);
    expect(new Set(got).size).toBe(got.length);
    expect(new Set(got)).toEqual(expected);

    const moved = alerts.find((a) => a.rule === 'active_change:1')!;
    expect(moved.message).toMatch(
      /^Active [+−]\d+\.\d \(\d+\.\d → \d+\.\d\) since the previous batch/,
    );
    expect(moved.link).toBe(`/country/${moved.iso}`);
    expect(moved.watchlist_id).toBe(listId);
    expect(moved.before?.as_of).not.toBe(moved.after.as_of);
  });

  it('counts unread alerts and marks them read', async () => {
    const total = (await allAlerts()).length;
    const count = await stack.app.inject({ url: '/api/alerts/unread-count' });
    expect(count.json()).toEqual({ ok: true, unread: total });
    const [one] = (await stack.app.inject({ url: '/api/alerts?limit=1' })).json().alerts;
    const marked = await stack.app.inject({
      method: 'POST',
      url: '/api/alerts/read',
      payload: { ids: [one.id] },
    });
    expect(marked.json()).toMatchObject({ ok: true, marked: 1, unread: total - 1 });
    const unreadOnly = (await stack.app.inject({ url: '/api/alerts?unread=1&limit=200' })).json();
    expect(unreadOnly.alerts.map((a: Alert) => a.id)).not.toContain(one.id);
    const list = (await stack.app.inject({ url: `/api/watchlists/${listId}` })).json().watchlist;
    expect(list.unread_alerts).toBe(total - 1);
    const bad: Array<[string, unknown]> = [
      ['/api/alerts?unread=yes', null],
      ['/api/alerts?limit=0', null],
      ['/api/alerts?cursor=abc', null],
      ['/api/alerts?watchlist=x', null],
      ['/api/alerts?colour=red', null],
    ];
    for (const [url] of bad) {
      const res = await stack.app.inject({ url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().ok).toBe(false);
    }
    expect((await stack.app.inject({ url: '/api/alerts?watchlist=99999' })).statusCode).toBe(404);
    const badBody = await stack.app.inject({
      method: 'POST',
      url: '/api/alerts/read',
      payload: { ids: ['x'] },
    });
    expect(badBody.statusCode).toBe(400);
  });

  it('adds nothing after a restart', async () => {
    const before = (await allAlerts()).length;
    await stack.app.close();
    const again = await startHistoryStack(store, { start: stack.clock.t });
    try {
      await again.bff.alertsIdle();
      expect((await allAlerts(again.app)).length).toBe(before);
    } finally {
      await again.close();
    }
  }, 60_000);
});

describe('two evaluators on one PostgreSQL database', () => {
  it('write each alert once', async () => {
    const url = new Secret(await freshPostgresDatabase());
    const a = await HistoryStore.open({ dataDir: null, databaseUrl: url, retentionDays: null });
    const b = await HistoryStore.open({ dataDir: null, databaseUrl: url, retentionDays: null });
    const stack = await startHistoryStack(a, { start });
    try {
      await stack.bff.alertsIdle();
      const [first] = await a.latestBatches(1);
      const countries = (await a.countryRows(first!.id))
        .map((r) => r.iso)
        .sort()
        .slice(0, 100);
      const created = await stack.app.inject({
        method: 'POST',
        url: '/api/watchlists',
        payload: { name: 'Race', countries, rules: [{ kind: 'active_change', min_abs_delta: 1 }] },
      });
      expect(created.statusCode).toBe(201);
      // A batch recorded while both processes could evaluate it.
      const silent = { info() {}, warn() {}, error() {} } as never;
      const second = new AlertEvaluator({
        db: b.db,
        now: stack.clock.now,
        logger: silent,
        linkBase: null,
        emailEnabled: false,
      });
      await stack.nextBatch();
      await Promise.all([stack.bff.alertsIdle(), second.evaluatePending()]);
      const alerts = (await stack.app.inject({ url: '/api/alerts?limit=200' })).json()
        .alerts as Alert[];
      const keys = alerts.map((x) => `${x.batch_as_of}|${x.rule}|${x.iso}`);
      expect(keys.length).toBeGreaterThan(0);
      expect(new Set(keys).size).toBe(keys.length);
      // Evaluating again, from either side, finds nothing new.
      expect(await second.evaluatePending()).toBe(0);
    } finally {
      await stack.close();
      await b.close();
      await a.close();
    }
  }, 120_000);
});
