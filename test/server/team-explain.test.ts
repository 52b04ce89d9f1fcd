import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectBatchRefs } from '../../src/server/store/alerts.js';
import { selectCountryRows } from '../../src/server/store/batches.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { teamIndexOf, weightsOf } from '../../src/shared/team-index-api.js';
import { startHistoryStack, type HistoryStack } from '../helpers/history-stack.js';
import { openAppStore } from '../helpers/history-store.js';

/*
 * Issue 31, "why it moved" in the team view: `/api/country/:iso/explain?index=team` explains the
 * move of OUR index (our weights, the same for both batches; our override's tier), says so, and
 * keeps the provider's move beside it; without `index` the answer is the provider's as before.
 */
const WEIGHTS = weightsOf({ security: 3, cyber: 1 });
const ISO = 'UKR';

let store: HistoryStore;
let stack: HistoryStack;

beforeAll(async () => {
  store = await openAppStore();
  stack = await startHistoryStack(store, { start: Date.UTC(2026, 4, 2, 8) });
  await stack.nextBatch();
  await stack.nextBatch();
  const current = await stack.app.inject({ method: 'GET', url: '/api/index-weights' });
  const put = await stack.app.inject({
    method: 'PUT',
    url: '/api/index-weights',
    headers: { 'if-match': String(current.headers.etag) },
    payload: { name: 'Security first', weights: WEIGHTS },
  });
  expect(put.statusCode, put.body).toBe(200);
}, 60_000);
afterAll(async () => {
  await stack?.close();
  await store?.close();
});

interface Explained {
  delta_risk: number | null;
  sentence: string;
  categories: Array<{ category: string; weight: number | null; delta_score: number | null }>;
  index?: { kind: string; name: string };
  now?: { risk: number | null; tier: string | null };
  tier_source?: string;
  provider?: { delta_risk: number | null; sentence: string };
}

async function explain(query: string): Promise<Explained> {
  const url = `/api/country/${ISO}/explain${query}`;
  const response = await stack.app.inject({ method: 'GET', url });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Explained;
}

/** The country's team index in the last two recorded batches, by hand from the stored rows. */
async function teamIndexesByHand(): Promise<[number, number]> {
  const ids = (await selectBatchRefs(store.db)).map((ref) => ref.id);
  const indexOf = async (id: number) => {
    const row = (await selectCountryRows(store.db, id)).find((r) => r.iso.trim() === ISO);
    return teamIndexOf(row!.categories, WEIGHTS)!;
  };
  return [await indexOf(ids.at(-2)!), await indexOf(ids.at(-1)!)];
}

describe('why it moved with ?index=team', () => {
  it("explains the team index's move, the provider's beside it", async () => {
    const provider = await explain('');
    const team = await explain('?index=team');
    const [then, now] = await teamIndexesByHand();
    expect(team.delta_risk).toBeCloseTo(Math.round((now - then) * 100) / 100, 6);
    expect(team.now?.risk).toBe(now);
    expect(team.index).toMatchObject({ kind: 'team', name: 'Security first' });
    expect(team.sentence).toMatch(/^Team index "Security first" [+−]\d+\.\d \(provider's risk /);
    expect(team.provider).toEqual(
      expect.objectContaining({ delta_risk: provider.delta_risk, sentence: provider.sentence }),
    );
    // Our weights, as shares of their sum: security 3 of 4, cyber 1 of 4, the rest nothing.
    const weightOf = new Map(team.categories.map((c) => [c.category, c.weight]));
    expect(weightOf.get('security')).toBeCloseTo(0.75, 6);
    expect(weightOf.get('cyber')).toBeCloseTo(0.25, 6);
    expect(weightOf.get('economic')).toBe(0);
    // The provider view is unchanged: its own sentence, no team note.
    expect(provider.index).toBeUndefined();
    expect(provider.sentence).toMatch(/^Risk /);
  });

  it("gives our override's tier at the newer batch", async () => {
    const band = (await explain('?index=team')).now?.tier;
    const ours = band === 'low' ? 'crit' : 'low';
    const put = await stack.app.inject({
      method: 'PUT',
      url: `/api/overrides/${ISO}`,
      headers: { 'if-match': '"0"' },
      payload: { tier: ours, reason: 'Our people there', expires: '2099-01-01' },
    });
    expect(put.statusCode, put.body).toBe(200);
    const team = await explain('?index=team');
    expect(team.now?.tier).toBe(ours);
    expect(team.tier_source).toBe('override');
  });

  it('refuses an unknown index in words', async () => {
    const url = `/api/country/${ISO}/explain?index=ours`;
    const response = await stack.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ ok: false, error: expect.stringMatching(/^index must be/) });
  });
});
