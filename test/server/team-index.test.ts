import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret } from '../../src/server/secret.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import type { Role } from '../../src/shared/roles.js';
import { HOUR } from '../helpers/clock.js';
import { startHistoryStack, type HistoryStack } from '../helpers/history-stack.js';
import { openAppStore } from '../helpers/history-store.js';
import { weightsOf } from '../../src/shared/team-index-api.js';

/*
 * Our own view of risk (issue 31): the team index's weights over the whole recorded history,
 * `?index=team` on the routes that answer country figures, overrides that end by themselves,
 * and the bad input they refuse. Behind an SSO proxy whose groups header names each role.
 */
const USER = 'x-forwarded-user';
const GROUPS = 'x-forwarded-groups';
const GROUP_OF: Record<Role, string> = {
  viewer: 'staff',
  editor: 'risk-editors',
  admin: 'risk-admins',
};
const as = (role: Role) => ({ [USER]: `${role}-person`, [GROUPS]: `staff, ${GROUP_OF[role]}` });

/** Every category at 0: a test sets the ones it weighs. */
const ZERO = weightsOf({});

interface Point {
  as_of: string;
  risk: number | null;
  tier: string | null;
  provider?: { risk: number | null; tier: string | null };
  categories: Record<string, { score?: number | null }> | null;
}

let store: HistoryStore;
let stack: HistoryStack;

beforeAll(async () => {
  store = await openAppStore();
  stack = await startHistoryStack(store, {
    start: Date.UTC(2026, 3, 1, 8),
    config: {
      access: {
        dashboardToken: new Secret('q3Jx0vTq8mZ2bYl4VdN7cR1sWk9eHu5aPf6gLi2oXy0='),
        trustedProxyAuthHeader: USER,
        trustedProxyGroupsHeader: GROUPS,
        trustedProxyAddresses: ['127.0.0.1'],
        roles: { editors: ['risk-editors'], admins: ['risk-admins'] },
        allowAnonymous: false,
        auditRetentionDays: 30,
      },
    },
  });
  await stack.nextBatch();
  await stack.nextBatch();
}, 60_000);
afterAll(async () => {
  await stack?.close();
  await store?.close();
});

async function call(
  method: 'GET' | 'PUT' | 'DELETE',
  url: string,
  options: { role?: Role; body?: unknown; ifMatch?: string } = {},
) {
  const response = await stack.app.inject({
    method,
    url,
    headers: {
      ...as(options.role ?? 'admin'),
      ...(options.ifMatch === undefined ? {} : { 'if-match': options.ifMatch }),
    },
    ...(options.body === undefined ? {} : { payload: options.body as object }),
  });
  return { status: response.statusCode, body: response.json(), etag: response.headers.etag };
}

async function putWeights(name: string, weights: Record<string, number>) {
  const current = await call('GET', '/api/index-weights');
  return call('PUT', '/api/index-weights', {
    body: { name, weights },
    ifMatch: String(current.etag),
  });
}

async function history(query: string): Promise<Point[]> {
  const answer = await call('GET', `/api/history/country/UKR${query}`, { role: 'viewer' });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return (answer.body as { points: Point[] }).points;
}

const score = (point: Point, name: string): number => {
  const value = point.categories?.[name]?.score;
  if (typeof value !== 'number') throw new Error(`no ${name} score at ${point.as_of}`);
  return value;
};

describe('the team index over the recorded history', () => {
  it('is refused in words before any weights are set', async () => {
    const answer = await call('GET', '/api/countries?index=team', { role: 'viewer' });
    expect(answer.status).toBe(409);
    expect(answer.body.error).toMatch(/No team index weights are set yet/);
  });

  it('needs an admin and If-Match to set weights', async () => {
    const body = { name: 'Logistics view', weights: { ...ZERO, security: 2 } };
    const byEditor = await call('PUT', '/api/index-weights', { role: 'editor', body });
    expect(byEditor.status).toBe(403);
    const noMatch = await call('PUT', '/api/index-weights', { body });
    expect(noMatch.status).toBe(428);
    const stale = await call('PUT', '/api/index-weights', { body, ifMatch: '"7"' });
    expect(stale.status).toBe(412);
  });

  it('recomputes every recorded batch with the weights, and again when they change', async () => {
    const provider = await history('');
    expect(provider.length).toBeGreaterThanOrEqual(3);

    const set = await putWeights('Logistics view', { ...ZERO, security: 2, economic: 1 });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const team = await history('?index=team');
    expect(team.map((p) => p.as_of)).toEqual(provider.map((p) => p.as_of));
    for (const [i, point] of provider.entries()) {
      // By hand: (2 × security + 1 × economic) / 3, to two decimals.
      const expected =
        Math.round(((2 * score(point, 'security') + score(point, 'economic')) / 3) * 100) / 100;
      expect(team[i]?.risk, point.as_of).toBeCloseTo(expected, 6);
      expect(team[i]?.provider?.risk).toBe(point.risk);
    }
    expect(team.some((p, i) => p.risk !== provider[i]?.risk)).toBe(true);

    const changed = await putWeights('Cyber only', { ...ZERO, cyber: 5 });
    expect(changed.status).toBe(200);
    const recomputed = await history('?index=team');
    for (const [i, point] of provider.entries()) {
      expect(recomputed[i]?.risk, point.as_of).toBeCloseTo(score(point, 'cyber'), 6);
    }
    // The weights then: every point is older than both versions, so it takes the first.
    const then = await history('?index=team&weights=then');
    expect(then.map((p) => p.risk)).toEqual(team.map((p) => p.risk));
  });

  it('keeps every version of the weights with its time', async () => {
    const answer = await call('GET', '/api/index-weights', { role: 'viewer' });
    expect(answer.body.current).toMatchObject({ name: 'Cyber only', set_by: 'admin-person' });
    expect(answer.body.earlier.map((w: { name: string }) => w.name)).toEqual(['Logistics view']);
    expect(answer.etag).toBe(`"${answer.body.current.version}"`);
  });
});

describe('?index=team on the routes that answer country figures', () => {
  it('/api/countries answers the team index where the risk was, and says so', async () => {
    const provider = await call('GET', '/api/countries', { role: 'viewer' });
    const team = await call('GET', '/api/countries?index=team', { role: 'viewer' });
    expect(team.status).toBe(200);
    expect(team.body.index).toMatchObject({
      kind: 'team',
      name: 'Cyber only',
      weights_used: 'today',
    });
    const before = provider.body.countries.find((c: { iso: string }) => c.iso === 'UKR');
    const after = team.body.countries.find((c: { iso: string }) => c.iso === 'UKR');
    expect(after.risk).toBe(before.categories.cyber.score);
    expect(after.provider).toEqual({ risk: before.risk, tier: before.tier });
  });

  it('the hotspot list is ranked by the team index', async () => {
    const team = await call('GET', '/api/v1/hotspots?index=team&limit=5', { role: 'viewer' });
    expect(team.status).toBe(200);
    const risks = team.body.hotspots.map((h: { risk: number }) => h.risk);
    expect(risks).toEqual([...risks].sort((a: number, b: number) => b - a));
    expect(team.body.index.kind).toBe('team');
  });

  it('a country, and a past batch with the weights then unless today is asked for', async () => {
    const now = await call('GET', '/api/v1/country/UKR?index=team', { role: 'viewer' });
    expect(now.body.country.risk).toBe(now.body.country.categories.cyber.score);
    const first = (await history(''))[0] as Point;
    const at = encodeURIComponent(first.as_of);
    const then = await call('GET', `/api/v1/country/UKR?index=team&as_of=${at}`);
    expect(then.body.index).toMatchObject({ name: 'Logistics view', weights_used: 'then' });
    const expected =
      Math.round(((2 * score(first, 'security') + score(first, 'economic')) / 3) * 100) / 100;
    expect(then.body.country.risk).toBeCloseTo(expected, 6);
    const today = await call('GET', `/api/countries?index=team&weights=today&as_of=${at}`);
    expect(today.body.index.name).toBe('Cyber only');
  });

  it('refuses an unknown index or weights choice in words', async () => {
    const bad = await call('GET', '/api/countries?index=ours');
    expect(bad).toMatchObject({ status: 400, body: { ok: false } });
    expect(bad.body.error).toMatch(/^index must be provider or team/);
    const alone = await call('GET', '/api/countries?weights=then');
    expect(alone.body.error).toMatch(/weights only applies with index=team/);
  });
});

describe('the team index rule', () => {
  // Twenty levels 2.5 apart: with 100 countries some cross one between two batches.
  const LEVELS = Array.from({ length: 20 }, (_, i) => 40 + i * 2.5);
  const rules = LEVELS.map((threshold) => ({
    kind: 'team_index_threshold',
    threshold,
    direction: 'both',
  }));
  /** By hand: the levels crossed between two values, either way. */
  const crossed = (from: number, to: number) =>
    LEVELS.filter((level) => from < level !== to < level);

  it('alerts on a crossing of the team index (weights in force), not of the provider risk', async () => {
    const countries = (await call('GET', '/api/countries', { role: 'viewer' })).body.countries
      .map((c: { iso: string }) => c.iso)
      .sort()
      .slice(0, 100) as string[];
    const created = await stack.app.inject({
      method: 'POST',
      url: '/api/watchlists',
      headers: as('editor'),
      payload: { name: 'Team index', countries, rules, scope: 'team' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const listId = created.json().watchlist.id as string;
    const before = (await call('GET', '/api/countries?index=team', { role: 'viewer' })).body;
    await stack.nextBatch();
    await stack.bff.alertsIdle();
    const after = (await call('GET', '/api/countries?index=team', { role: 'viewer' })).body;
    expect(after.as_of).not.toBe(before.as_of);

    const expected: string[] = [];
    for (const iso of countries) {
      const was = before.countries.find((c: { iso: string }) => c.iso === iso)?.risk;
      const now = after.countries.find((c: { iso: string }) => c.iso === iso)?.risk;
      if (typeof was !== 'number' || typeof now !== 'number') continue;
      for (const level of crossed(was, now)) {
        expected.push(`${iso} team_index_threshold:${level}:both`);
      }
    }
    expect(expected.length).toBeGreaterThan(0);
    const alerts = (await call('GET', `/api/alerts?watchlist=${listId}&limit=200`)).body.alerts as {
      iso: string;
      rule: string;
      message: string;
    }[];
    expect(alerts.map((a) => `${a.iso} ${a.rule}`).sort()).toEqual(expected.sort());
    expect(alerts[0]?.message).toMatch(/^Team index crossed /);
  });

  it("is backtested over the recorded history with today's weights", async () => {
    const points = await history('');
    const expected = new Map<number, number>();
    for (let i = 1; i < points.length; i += 1) {
      for (const level of crossed(score(points[i - 1]!, 'cyber'), score(points[i]!, 'cyber'))) {
        expected.set(level, (expected.get(level) ?? 0) + 1);
      }
    }
    expect(expected.size).toBeGreaterThan(0);
    const answer = await stack.app.inject({
      method: 'POST',
      url: '/api/watchlists/backtest',
      headers: as('viewer'),
      payload: { countries: ['UKR'], rules },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const [ukr] = answer.json().countries as { rules: { rule: string; count: number }[] }[];
    const counts = new Map(ukr!.rules.map((r) => [r.rule, r.count]));
    for (const level of LEVELS) {
      expect(counts.get(`team_index_threshold:${level}:both`), String(level)).toBe(
        expected.get(level) ?? 0,
      );
    }
  });
});

describe('the spreadsheets in the team view', () => {
  it('rank by the team index, keep the provider beside it, name the weights, guard formulas', async () => {
    const expires = new Date(stack.clock.now() + 48 * HOUR).toISOString();
    const reason = '=HYPERLINK("http://x")';
    await call('PUT', '/api/overrides/FRA', {
      role: 'editor',
      body: { tier: 'crit', reason, expires },
      ifMatch: '"0"',
    });
    const file = await stack.app.inject({
      url: '/api/spreadsheet/countries?index=team',
      headers: as('viewer'),
    });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toMatch(/filename="global-risk-team-index-/);
    const rows = parse(file.body, { bom: true, columns: true }) as Record<string, string>[];
    const team = await call('GET', '/api/countries?index=team', { role: 'viewer' });
    const ranked = [...team.body.countries].sort(
      (a: { risk: number }, b: { risk: number }) => b.risk - a.risk,
    );
    expect(rows[0]?.['ISO code']).toBe(ranked[0].iso);
    const fra = rows.find((r) => r['ISO code'] === 'FRA');
    const fraTeam = team.body.countries.find((c: { iso: string }) => c.iso === 'FRA');
    expect(Number(fra?.['Team index (0–100)'])).toBe(fraTeam.risk);
    expect(Number(fra?.['Provider risk (0–100)'])).toBe(fraTeam.provider.risk);
    expect(fra?.['Team tier from']).toBe('Override');
    expect(fra?.['Override reason']).toBe(`'${reason}`);
    expect(fra?.['Team weights']).toBe('Cyber only (version 2): cyber 5');

    const one = await stack.app.inject({
      url: '/api/spreadsheet/country/FRA?index=team',
      headers: as('viewer'),
    });
    const only = parse(one.body, { bom: true, columns: true }) as Record<string, string>[];
    expect(only.map((r) => r['ISO code'])).toEqual(['FRA']);
    await call('DELETE', '/api/overrides/FRA', { role: 'editor', ifMatch: '"1"' });
  });

  it("write their header row in the reader's language (issue 34), the cells as in English", async () => {
    const sheet = async (url: string) => {
      const res = await stack.app.inject({ url, headers: as('viewer') });
      expect(res.statusCode, url).toBe(200);
      const [head, first] = parse(res.body, { bom: true, to: 2 }) as string[][];
      return { language: res.headers['content-language'], head, first };
    };
    const english = await sheet('/api/spreadsheet/countries?index=team');
    const arabic = await sheet('/api/spreadsheet/countries?index=team&lang=ar');
    expect(arabic.language).toBe('ar');
    expect(arabic.head?.slice(0, 3)).toEqual(['الترتيب حسب مؤشر الفريق', 'البلد', 'رمز ISO']);
    expect(arabic.first).toEqual(english.first);
    const french = await sheet('/api/spreadsheet/country/FRA?index=team&lang=fr');
    expect(french.head?.[0]).toBe('Rang selon l’indice de l’équipe');
  });
});

describe('bad input is a 400 naming the field, and nothing is written', () => {
  const cases: Array<[string, unknown, RegExp]> = [
    ['a weight above 10', { name: 'x', weights: { ...ZERO, security: 11 } }, /weights\.security/],
    ['a negative weight', { name: 'x', weights: { ...ZERO, crime: -1 } }, /weights\.crime/],
    ['all weights zero', { name: 'x', weights: ZERO }, /at least one category/],
    [
      'an unknown category',
      { name: 'x', weights: { ...ZERO, weather: 3 } },
      /unknown category "weather"/,
    ],
    ['a missing category', { name: 'x', weights: { security: 3 } }, /weights\.political/],
    [
      'a bidi character in the name',
      { name: 'a\u202Eb', weights: { ...ZERO, cyber: 1 } },
      /name must not contain/,
    ],
  ];
  for (const [what, body, words] of cases) {
    it(`weights: ${what}`, async () => {
      const before = await call('GET', '/api/index-weights');
      const answer = await call('PUT', '/api/index-weights', {
        body,
        ifMatch: String(before.etag),
      });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ ok: false });
      expect(answer.body.error).toMatch(words);
      expect((await call('GET', '/api/index-weights')).body).toEqual(before.body);
    });
  }

  const future = new Date(Date.UTC(2026, 4, 1)).toISOString();
  const overrideCases: Array<[string, unknown, RegExp]> = [
    [
      'an expiry in the past',
      { tier: 'high', reason: 'r', expires: '2026-01-01' },
      /expires must be in the future/,
    ],
    [
      'an unreadable expiry',
      { tier: 'high', reason: 'r', expires: 'soon' },
      /expires must be an ISO date/,
    ],
    [
      'a reason too long',
      { tier: 'high', reason: 'x'.repeat(501), expires: future },
      /reason must be at most 500/,
    ],
    ['an unknown tier', { tier: 'severe', reason: 'r', expires: future }, /tier must be one of/],
    [
      'a control character in the reason',
      { tier: 'high', reason: 'a\u0007b', expires: future },
      /reason must not contain/,
    ],
  ];
  for (const [what, body, words] of overrideCases) {
    it(`override: ${what}`, async () => {
      const answer = await call('PUT', '/api/overrides/MLI', {
        role: 'editor',
        body,
        ifMatch: '"0"',
      });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatch(words);
      expect((await call('GET', '/api/overrides/MLI')).status).toBe(404);
    });
  }
});

describe('an override', () => {
  it('shows beside the provider tier in the team view, audited, and ends by itself', async () => {
    const byViewer = await call('PUT', '/api/overrides/UKR', { role: 'viewer', body: {} });
    expect(byViewer.status).toBe(403);
    const expires = new Date(stack.clock.now() + 2 * HOUR).toISOString();
    const set = await call('PUT', '/api/overrides/UKR', {
      role: 'editor',
      body: { tier: 'low', reason: 'Our people left the region', expires },
      ifMatch: '"0"',
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.etag).toBe('"1"');

    const team = await call('GET', '/api/countries?index=team', { role: 'viewer' });
    const ukr = team.body.countries.find((c: { iso: string }) => c.iso === 'UKR');
    expect(ukr).toMatchObject({ tier: 'low', tier_source: 'override' });
    expect(ukr.provider.tier).not.toBeNull();
    expect(ukr.override).toMatchObject({
      reason: 'Our people left the region',
      set_by: 'editor-person',
    });

    const audit = await call('GET', '/api/audit?object=/api/overrides/UKR');
    expect(audit.body.entries.map((e: { action: string }) => e.action)).toContain('override set');

    // Time passes past the expiry: the job wakes by itself on the test's clock.
    stack.clock.advance(2 * HOUR + 1);
    stack.scheduler.runDue();
    await stack.bff.teamIdle();
    expect((await call('GET', '/api/overrides/UKR')).status).toBe(404);
    const after = await call('GET', '/api/countries?index=team', { role: 'viewer' });
    const ended = after.body.countries.find((c: { iso: string }) => c.iso === 'UKR');
    expect(ended).toMatchObject({ tier_source: 'team_index', override: null });
    const log = await call('GET', '/api/audit?object=/api/overrides/UKR');
    expect(log.body.entries[0]).toMatchObject({ action: 'override expired' });
  });

  it('a change and an end need If-Match and are audited', async () => {
    const expires = new Date(stack.clock.now() + 24 * HOUR).toISOString();
    const body = { tier: 'crit', reason: 'Port closed', expires };
    expect((await call('PUT', '/api/overrides/MLI', { role: 'editor', body })).status).toBe(428);
    await call('PUT', '/api/overrides/MLI', { role: 'editor', body, ifMatch: '"0"' });
    const changed = await call('PUT', '/api/overrides/MLI', {
      role: 'editor',
      body: { ...body, tier: 'high' },
      ifMatch: '"1"',
    });
    expect(changed.body.override).toMatchObject({ tier: 'high', version: 2 });
    expect(
      (await call('DELETE', '/api/overrides/MLI', { role: 'editor', ifMatch: '"1"' })).status,
    ).toBe(412);
    const ended = await call('DELETE', '/api/overrides/MLI', { role: 'editor', ifMatch: '"2"' });
    expect(ended.status).toBe(200);
    const log = await call('GET', '/api/audit?object=/api/overrides/MLI');
    const actions = log.body.entries.map((e: { action: string }) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(['override set', 'override changed', 'override ended']),
    );
  });
});

describe('an override feeds the tier-change rule and tells the lists when it expires', () => {
  it('alerts a tier change an override set, its expiry in the inbox, and the change back', async () => {
    const countries = (await call('GET', '/api/countries', { role: 'viewer' })).body.countries as {
      iso: string;
      tier: string | null;
    }[];
    const target = countries.find((c) => c.iso === 'FRA' && c.tier !== null)!;
    const ours = target.tier === 'crit' ? 'low' : 'crit';
    const created = await stack.app.inject({
      method: 'POST',
      url: '/api/watchlists',
      headers: as('editor'),
      payload: {
        name: 'Override watch',
        countries: ['FRA'],
        rules: [{ kind: 'tier_change', direction: 'both' }],
        scope: 'team',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const listId = created.json().watchlist.id as string;
    const alertsOfList = async () =>
      (await call('GET', `/api/alerts?watchlist=${listId}&limit=50`)).body.alerts as {
        kind: string;
        rule: string;
        message: string;
      }[];

    const expires = new Date(stack.clock.now() + 20 * HOUR).toISOString();
    const set = await call('PUT', '/api/overrides/FRA', {
      role: 'editor',
      body: { tier: ours, reason: 'Strikes at every port', expires },
      ifMatch: '"0"',
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    await stack.nextBatch();
    await stack.bff.alertsIdle();
    const setAlerts = (await alertsOfList()).filter((a) => a.kind === 'tier_change');
    expect(setAlerts).toHaveLength(1);
    expect(setAlerts[0]!.message).toMatch(
      /^Tier (up|down) from .+ to .+ by our override \(“Strikes at every port”, set by editor-person\)/,
    );

    // Past the expiry: the job ends it by itself and each list holding FRA is told at once.
    // The advance also wakes the batch watch: the batch of 12 hours later is recorded and
    // evaluated before the next one (left to race, that batch could be recorded from the
    // hotspots alone, which alert-partial-batch.test.ts covers).
    stack.clock.advance(20 * HOUR + 1);
    stack.scheduler.runDue();
    await stack.bff.teamIdle();
    await stack.bff.historyIdle();
    await stack.bff.alertsIdle();
    const expired = (await alertsOfList()).filter((a) => a.kind === 'override_expired');
    expect(expired).toHaveLength(1);
    expect(expired[0]!.message).toMatch(
      /^Our override of France \(.+, “Strikes at every port”, set by editor-person\) ended at its expiry/,
    );

    // The next batch: ours is the provider's tier again, which alerts as a change, saying why.
    await stack.nextBatch();
    await stack.bff.alertsIdle();
    const changes = (await alertsOfList()).filter((a) => a.kind === 'tier_change');
    expect(changes).toHaveLength(2);
    expect(changes.map((a) => a.message).join('\n')).toMatch(
      /: our override \(“Strikes at every port”\) ended, so the provider's tier applies again/,
    );
  });
});
