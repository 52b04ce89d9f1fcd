import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectBatchRefs } from '../../src/server/store/alerts.js';
import { selectCountryRows } from '../../src/server/store/batches.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { bandOf, teamIndexOf, weightsOf } from '../../src/shared/team-index-api.js';
import { startHistoryStack, type HistoryStack } from '../helpers/history-stack.js';
import { openAppStore } from '../helpers/history-store.js';

/*
 * Issue 31, `/api/exposure?index=team`: our sites and people by OUR tier (the team index's band
 * with our weights, our override's tier where one is in force), the provider's own count beside
 * it; the provider view unchanged; an unknown `index` a 400 naming it. Checked against tiers
 * worked out here from the recorded rows.
 */
const WEIGHTS = weightsOf({ health: 1 });
const SITES = [
  { ref: 'W', name: 'Warsaw', kind: 'office', lat: 52.23, lng: 21.01, people: 10 },
  { ref: 'P', name: 'Paris', kind: 'office', lat: 48.85, lng: 2.35, people: 60 },
  { ref: 'N', name: 'Nairobi', kind: 'project', lat: -1.29, lng: 36.82, people: 7 },
];
const PEOPLE: Record<string, number> = { POL: 10, FRA: 60, KEN: 7 };
/** Our override: France counts under this tier whatever the index says. */
const OVERRIDDEN = 'FRA';

let store: HistoryStore;
let stack: HistoryStack;
beforeAll(async () => {
  store = await openAppStore();
  stack = await startHistoryStack(store, { start: Date.UTC(2026, 2, 1, 8) });
  await stack.nextBatch();
  const imported = await stack.app.inject({
    method: 'POST',
    url: '/api/sites/import',
    payload: SITES,
  });
  expect(imported.json().created).toHaveLength(3);
  const current = await stack.app.inject({ method: 'GET', url: '/api/index-weights' });
  const put = await stack.app.inject({
    method: 'PUT',
    url: '/api/index-weights',
    headers: { 'if-match': String(current.headers.etag) },
    payload: { name: 'Trade view', weights: WEIGHTS },
  });
  expect(put.statusCode, put.body).toBe(200);
  const override = await stack.app.inject({
    method: 'PUT',
    url: `/api/overrides/${OVERRIDDEN}`,
    headers: { 'if-match': '"0"' },
    payload: { tier: 'crit', reason: 'Our people there', expires: '2099-01-01' },
  });
  expect(override.statusCode, override.body).toBe(200);
}, 90_000);
afterAll(async () => {
  await stack?.close();
  await store?.close();
});

interface TierCount {
  tier: string;
  people: number;
  sites: number;
  overridden: number;
}
const exposure = async (query: string) => {
  const res = await stack.app.inject({ url: `/api/exposure${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    by_tier: TierCount[];
    provider?: { by_tier: TierCount[] };
    team_index?: { kind: string; name: string };
  };
};

/** People by tier as `tierOf` gives each site's country. */
function peopleBy(tierOf: (iso: string) => string): Record<string, number> {
  const by: Record<string, number> = {};
  for (const [iso, people] of Object.entries(PEOPLE)) {
    by[tierOf(iso)] = (by[tierOf(iso)] ?? 0) + people;
  }
  return by;
}
const asRecord = (rows: TierCount[]) => Object.fromEntries(rows.map((r) => [r.tier, r.people]));

describe('/api/exposure?index=team', () => {
  it("counts sites and people by our tier, the provider's count beside it", async () => {
    const ids = (await selectBatchRefs(store.db)).map((ref) => ref.id);
    const rows = new Map(
      (await selectCountryRows(store.db, ids.at(-1)!)).map((row) => [row.iso.trim(), row]),
    );
    const teamTier = (iso: string) =>
      iso === OVERRIDDEN ? 'crit' : bandOf(teamIndexOf(rows.get(iso)!.categories, WEIGHTS))!;
    const providerTier = (iso: string) => rows.get(iso)!.tier!;
    const team = await exposure('?index=team');
    expect(team.team_index).toMatchObject({ kind: 'team', name: 'Trade view' });
    expect(asRecord(team.by_tier)).toEqual(peopleBy(teamTier));
    expect(asRecord(team.provider!.by_tier)).toEqual(peopleBy(providerTier));
    expect(team.by_tier.find((r) => r.tier === 'crit')?.overridden).toBe(1);
    // The weights really change the picture here (else the test would not tell the views apart).
    expect(peopleBy(teamTier)).not.toEqual(
      peopleBy((iso) => (iso === OVERRIDDEN ? 'crit' : providerTier(iso))),
    );
  });

  it('leaves the provider view as it was', async () => {
    const plain = await exposure('');
    expect(plain.team_index).toBeUndefined();
    expect(plain.provider).toBeUndefined();
  });

  it('refuses an unknown index in words naming it', async () => {
    const res = await stack.app.inject({ url: '/api/exposure?index=ours' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ ok: false, error: expect.stringMatching(/^index must be/) });
  });
});
