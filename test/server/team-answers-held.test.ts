import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TEAM_ANSWERS_HELD,
  TeamView,
  type TeamLens,
} from '../../src/server/services/team-index/team-view.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import type { IndexWeightsRow, OverrideRow } from '../../src/server/store/team-index.js';
import { weightsOf } from '../../src/shared/team-index-api.js';
import { startHistoryStack, type HistoryStack } from '../helpers/history-stack.js';
import { openAppStore } from '../helpers/history-store.js';

/*
 * Issue 31, the overview in the team view within 10 % of the provider's: the team answers are
 * held per (provider answer, weights version, overrides) instead of built per request, and a
 * new batch, a weights change or an override set builds anew (never a stale team figure).
 */
const weightsRow = (version: number): IndexWeightsRow =>
  ({
    version,
    name: 'W',
    weights: weightsOf({ security: 1 }),
    setAt: new Date(0),
    setBy: 't',
  }) as IndexWeightsRow;
const override = (iso: string, version: number) => [iso, { iso, version } as OverrideRow] as const;
const lens = (version: number, overrides: Array<ReturnType<typeof override>> = []): TeamLens => ({
  weights: weightsRow(version),
  used: 'today',
  overrides: new Map(overrides),
});

describe('TeamView.held', () => {
  const view = new TeamView({} as never, {} as never, { at: async () => new Map(), left: () => 0 });
  it('builds once per source, weights version and overrides, and again when any changes', () => {
    let builds = 0;
    const build = () => ({ n: ++builds });
    const body = Buffer.from('batch 1');
    const first = view.held('countries', body, lens(1), build);
    expect(view.held('countries', body, lens(1), build)).toBe(first);
    expect(builds).toBe(1);
    view.held('countries', Buffer.from('batch 2'), lens(1), build); // a new batch
    view.held('countries', body, lens(2), build); // new weights
    view.held('countries', body, lens(2, [override('FRA', 1)]), build); // an override set
    view.held('countries', body, lens(2, [override('FRA', 2)]), build); // ... and changed
    expect(builds).toBe(5);
  });

  it(`holds at most ${TEAM_ANSWERS_HELD} answers`, () => {
    let builds = 0;
    const build = () => ++builds;
    for (let i = 0; i <= TEAM_ANSWERS_HELD; i++) view.held(`kind ${i}`, 'src', lens(1), build);
    view.held(`kind ${TEAM_ANSWERS_HELD}`, 'src', lens(1), build); // the newest: held
    expect(builds).toBe(TEAM_ANSWERS_HELD + 1);
    view.held('kind 0', 'src', lens(1), build); // the oldest: dropped, built again
    expect(builds).toBe(TEAM_ANSWERS_HELD + 2);
  });
});

let store: HistoryStore;
let stack: HistoryStack;
beforeAll(async () => {
  store = await openAppStore();
  stack = await startHistoryStack(store, { start: Date.UTC(2026, 4, 2, 8) });
  await stack.nextBatch();
}, 60_000);
afterAll(async () => {
  await stack?.close();
  await store?.close();
});

async function putWeights(weights: Record<string, number>): Promise<void> {
  const current = await stack.app.inject({ method: 'GET', url: '/api/index-weights' });
  const put = await stack.app.inject({
    method: 'PUT',
    url: '/api/index-weights',
    headers: { 'if-match': String(current.headers.etag ?? '"0"') },
    payload: { name: 'Held', weights: weightsOf(weights) },
  });
  expect(put.statusCode, put.body).toBe(200);
}
async function teamCountry(iso: string, url = '/api/countries?index=team') {
  const res = await stack.app.inject({ url });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as {
    index: { version: number };
    countries: Array<{ iso: string; risk: number | null; tier: string | null }>;
  };
  return { version: body.index.version, row: body.countries.find((c) => c.iso === iso)! };
}

describe('held team answers through the routes', () => {
  it('follow a weights change and an override at once', async () => {
    await putWeights({ security: 1 });
    const before = await teamCountry('KEN');
    expect(await teamCountry('KEN')).toEqual(before);
    await putWeights({ health: 1 });
    const reweighted = await teamCountry('KEN');
    expect(reweighted.version).toBe(before.version + 1);
    expect(reweighted.row.risk).not.toBe(before.row.risk);
    const tier = reweighted.row.tier === 'low' ? 'crit' : 'low';
    const put = await stack.app.inject({
      method: 'PUT',
      url: '/api/overrides/KEN',
      headers: { 'if-match': '"0"' },
      payload: { tier, reason: 'Ours', expires: '2099-01-01' },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect((await teamCountry('KEN')).row.tier).toBe(tier);
  });
});

describe('held What changed in the team view', () => {
  async function teamMove(iso: string) {
    const res = await stack.app.inject({ url: '/api/changes?index=team' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as {
      index: { version: number };
      countries: Array<{ iso: string; now: { risk: number | null; tier: string | null } }>;
    };
    return { version: body.index.version, row: body.countries.find((c) => c.iso === iso)! };
  }

  it('follows a weights change and an override, never a stale figure', async () => {
    await putWeights({ security: 1 });
    const before = await teamMove('UGA');
    expect(before.row).toBeDefined();
    expect(await teamMove('UGA')).toEqual(before);
    await putWeights({ economic: 1 });
    const reweighted = await teamMove('UGA');
    expect(reweighted.version).toBe(before.version + 1);
    expect(reweighted.row.now.risk).not.toBe(before.row.now.risk);
    const tier = reweighted.row.now.tier === 'low' ? 'crit' : 'low';
    const put = await stack.app.inject({
      method: 'PUT',
      url: '/api/overrides/UGA',
      headers: { 'if-match': '"0"' },
      payload: { tier, reason: 'Ours', expires: '2099-01-01' },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect((await teamMove('UGA')).row.now.tier).toBe(tier);
  });
});
