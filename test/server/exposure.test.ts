import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  selectBatches,
  selectCountryRows,
  type CountryRow,
} from '../../src/server/store/batches.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import type { CountrySummary } from '../../src/shared/bff-api.js';
import { openTestStore } from '../helpers/history-store.js';
import { TIER_BANDS } from '../../src/shared/tiers.js';
import { startHistoryStack, type HistoryStack } from '../helpers/history-stack.js';
import { recordSynthetic, syntheticBatch } from '../helpers/synthetic-batches.js';

/*
 * /api/exposure through the real app and a real PGlite store that recorded several demo batches:
 * the tiers, the moves, the riskiest sites and the exposure index, each checked against numbers
 * computed here from the recorded batches' own rows.
 */
const start = Date.UTC(2026, 2, 1, 8, 0, 0);

let store: HistoryStore;
let stack: HistoryStack;
beforeAll(async () => {
  store = await openTestStore('pglite');
  stack = await startHistoryStack(store, { start });
  for (let i = 0; i < 3; i += 1) await stack.nextBatch();
  const res = await stack.app.inject({
    method: 'POST',
    url: '/api/sites/import',
    payload: [
      { ref: 'W', name: 'Warsaw', kind: 'office', lat: 52.23, lng: 21.01, people: 10, value: 5 },
      { ref: 'L', name: 'Lublin', kind: 'warehouse', lat: 51.25, lng: 22.57, people: 30, value: 5 },
      { ref: 'P', name: 'Paris', kind: 'office', lat: 48.85, lng: 2.35, people: 60, value: 1 },
      { ref: 'N', name: 'Nairobi', kind: 'project', lat: -1.29, lng: 36.82, value: 100 },
    ],
  });
  expect(res.json().created).toHaveLength(4);
}, 90_000);
afterAll(async () => {
  await stack?.close();
  await store?.close();
});

const exposure = async (query = '') => {
  const res = await stack.app.inject({ url: `/api/exposure${query}` });
  expect(res.statusCode).toBe(200);
  return res.json();
};

async function recorded(): Promise<Array<{ asOf: string; rows: Map<string, CountryRow> }>> {
  const batches = (await selectBatches(store.db, { from: null, to: null })).filter(
    (b) => b.countryCount > 0,
  );
  return Promise.all(
    batches.map(async (b) => ({
      asOf: b.asOf.toISOString(),
      rows: new Map((await selectCountryRows(store.db, b.id)).map((r) => [r.iso, r])),
    })),
  );
}

function weighted(rows: Map<string, CountryRow>, weights: Record<string, number>): number {
  let sum = 0;
  let total = 0;
  for (const [iso, w] of Object.entries(weights)) {
    const risk = rows.get(iso)?.risk;
    if (risk === null || risk === undefined) continue;
    sum += w * risk;
    total += w;
  }
  return Math.round((sum / total) * 100) / 100;
}

const PEOPLE = { POL: 40, FRA: 60, KEN: 0 };
const VALUE = { POL: 10, FRA: 1, KEN: 100 };

describe('exposure', () => {
  it('counts sites and people by their country tier in the newest batch', async () => {
    const body = await exposure();
    const latest = (await recorded()).at(-1)!;
    expect(body.as_of).toBe(latest.asOf);
    expect(body).toMatchObject({ sites: 4, people: 100, weight: 'people' });
    const expected = new Map<string, { sites: number; people: number }>();
    for (const [iso, sites, people] of [
      ['POL', 2, 40],
      ['FRA', 1, 60],
      ['KEN', 1, 0],
    ] as const) {
      const tier = latest.rows.get(iso)?.tier ?? 'unknown';
      const entry = expected.get(tier) ?? { sites: 0, people: 0 };
      expected.set(tier, { sites: entry.sites + sites, people: entry.people + people });
    }
    const got = new Map(
      body.by_tier.map((t: { tier: string; sites: number; people: number }) => [
        t.tier,
        { sites: t.sites, people: t.people },
      ]),
    );
    expect(got).toEqual(expected);
  });

  it('the index is the people-weighted (or value-weighted) mean, at every recorded batch', async () => {
    const batches = await recorded();
    expect(batches.length).toBeGreaterThanOrEqual(4);
    const people = await exposure();
    expect(people.index.trend).toEqual(
      batches.map((b) => ({ as_of: b.asOf, index: weighted(b.rows, PEOPLE) })),
    );
    expect(people.index.now).toBe(weighted(batches.at(-1)!.rows, PEOPLE));
    const value = await exposure('?weight=value');
    expect(value.index.trend.map((p: { index: number }) => p.index)).toEqual(
      batches.map((b) => weighted(b.rows, VALUE)),
    );
    expect(value.index.now).not.toBe(people.index.now);
  });

  it('a new batch extends the trend (what was held for the old batch is dropped)', async () => {
    const before = (await exposure()).index.trend.length;
    await stack.nextBatch();
    const after = await exposure();
    expect(after.index.trend).toHaveLength(before + 1);
    expect(after.index.trend.at(-1).index).toBe(weighted((await recorded()).at(-1)!.rows, PEOPLE));
  });

  // Issue 33, point 6: ranked by country risk only, the two Polish sites tied on risk.
  it('ranks the sites by people × distance-weighted risk within their radius; filters apply to everything', async () => {
    // Before the crafted batch below, which has rows for Poland and France only.
    const latest = (await recorded()).at(-1)!;
    const body = await exposure();
    const sites = (await stack.app.inject({ url: '/api/sites' })).json().sites as Array<{
      id: number;
      ref: string;
      iso: string;
      people: number | null;
      nearby: { iso: string; km: number }[];
      alert: { radius_km: number };
    }>;
    // The formula of docs/api.md, computed here from each site's stored distances.
    const expected = sites.map((site) => {
      let best: { risk: number; iso: string; km: number } | null = null;
      const within = site.nearby.filter((n) => n.km <= site.alert.radius_km);
      for (const { iso, km } of within) {
        const risk = latest.rows.get(iso)?.risk;
        if (typeof risk !== 'number') continue;
        const w = risk / (1 + km / 100);
        if (!best || w > best.risk) best = { risk: w, iso, km };
      }
      const weighted = best ? Math.round(best.risk * 100) / 100 : null;
      const score =
        weighted === null ? null : Math.round(Math.max(1, site.people ?? 0) * weighted) / 100;
      return { ref: site.ref, weighted_risk: weighted, exposure: score };
    });
    const rank = (n: number | null) => n ?? -1;
    expected.sort((a, b) => rank(b.exposure) - rank(a.exposure));
    expect(
      body.riskiest.map((s: { ref: string; weighted_risk: number; exposure: number }) => ({
        ref: s.ref,
        weighted_risk: s.weighted_risk,
        exposure: s.exposure,
      })),
    ).toEqual(expected);
    // Lublin has Ukraine within its 100 km: weighed above Warsaw, which has only Poland.
    const lublin = sites.find((s) => s.ref === 'L')!;
    expect(lublin.nearby.map((n) => n.iso)).toContain('UKR');
    const [w, l] = ['W', 'L'].map((ref) =>
      body.riskiest.find((s: { ref: string }) => s.ref === ref),
    );
    expect(w.risk).toBe(l.risk);
    expect(l.weighted_risk).toBeGreaterThan(w.weighted_risk);
    expect(l.exposure).not.toBe(w.exposure);
    const offices = await exposure('?kind=office');
    expect(offices).toMatchObject({ sites: 2, people: 70 });
    expect(offices.index.now).toBe(weighted(latest.rows, { POL: 10, FRA: 60 }));
    expect(offices.riskiest.map((s: { ref: string }) => s.ref).sort()).toEqual(['P', 'W']);
  });

  it('names the countries of ours that moved since the previous batch, with their sites', async () => {
    // A batch one minute after the newest: Poland up a tier and 6 points, France 0.5 (no move).
    const latest = (await recorded()).at(-1)!;
    const moved = (iso: string, risk: number, tier: string | null) => {
      const row = latest.rows.get(iso)!;
      return { iso, name: row.name, risk, tier, active: row.active } as unknown as CountrySummary;
    };
    const pol = latest.rows.get('POL')!;
    const fra = latest.rows.get('FRA')!;
    await recordSynthetic(store, {
      ...syntheticBatch(new Date(Date.parse(latest.asOf) + 60_000), [], {
        active: 0,
        risk: 0,
        tier: 'low',
      }),
      countries: [
        moved('POL', (pol.risk ?? 0) + 6, pol.tier === 'crit' ? 'high' : 'crit'),
        moved('FRA', (fra.risk ?? 0) + 0.5, fra.tier),
      ],
    });
    const body = await exposure();
    expect(body.moved.previous_batch.since).toBe(latest.asOf);
    expect(body.moved.previous_batch.countries).toEqual([
      expect.objectContaining({
        iso: 'POL',
        tier_before: pol.tier,
        risk_before: pol.risk,
        risk_now: (pol.risk ?? 0) + 6,
        sites: 2,
        people: 40,
        examples: [expect.objectContaining({ ref: 'L' }), expect.objectContaining({ ref: 'W' })],
      }),
    ]);
    // Kenya has no row in the new batch: counted as unknown, never as moved.
    expect(body.by_tier.find((t: { tier: string }) => t.tier === 'unknown')).toMatchObject({
      sites: 1,
    });
  });

  it('refuses an unknown weight in words', async () => {
    const res = await stack.app.inject({ url: '/api/exposure?weight=money' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('weight must be "people" (the default) or "value"');
  });
  it('as_of answers as a past batch stood: its numbers, the moves relative to it, the trend up to it', async () => {
    // The crafted batch recorded above (Poland up a tier) is the newest; ask for the one before,
    // a little after its time (the newest batch at or before as_of is answered).
    const batches = await recorded();
    const past = batches.at(-2)!;
    const latest = await exposure();
    const asOf = new Date(Date.parse(past.asOf) + 30_000).toISOString();
    const upstreamBefore = stack.demo.requestCount();
    const body = await exposure(`?as_of=${encodeURIComponent(asOf)}`);
    // Served from the store alone.
    expect(stack.demo.requestCount()).toBe(upstreamBefore);
    expect(body.as_of).toBe(past.asOf);
    expect(body.index.now).toBe(weighted(past.rows, PEOPLE));
    expect(body.index.now).not.toBe(latest.index.now);
    expect(body.index.trend).toEqual(
      batches.slice(0, -1).map((b) => ({ as_of: b.asOf, index: weighted(b.rows, PEOPLE) })),
    );
    // Moves are relative to that batch: Poland's crafted move came after it.
    expect(body.moved.previous_batch.since).toBe(batches.at(-3)!.asOf);
    expect(body.moved.previous_batch.countries.map((m: { iso: string }) => m.iso)).not.toContain(
      'POL',
    );
    expect(latest.moved.previous_batch.countries.map((m: { iso: string }) => m.iso)).toContain(
      'POL',
    );
    // Kenya had a row then: no site is of an unknown tier in that batch.
    const tiers = body.by_tier.map((t: { tier: string }) => t.tier);
    expect(tiers).not.toContain('unknown');
    expect(tiers).toContain(past.rows.get('POL')!.tier);
    // The sites' own countries' numbers as of that batch.
    for (const site of body.riskiest) expect(site.risk).toBe(past.rows.get(site.iso)?.risk ?? null);
  });

  it('refuses a malformed as_of, or one before the first recorded batch, in words', async () => {
    const bad = await stack.app.inject({ url: '/api/exposure?as_of=last-tuesday' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      ok: false,
      error: expect.stringMatching(/^as_of must be an ISO 8601 time .*last-tuesday/),
    });
    const early = await stack.app.inject({ url: '/api/exposure?as_of=2020-01-01' });
    expect(early.statusCode).toBe(400);
    expect(early.json()).toEqual({
      ok: false,
      error: 'as_of 2020-01-01T00:00:00.000Z is before the first recorded batch',
    });
  });
});

/** The lowest risk the provider calls Critical. */
const CRITICAL_FLOOR = TIER_BANDS.find((band) => band.tier === 'crit')!.min;

describe('our overrides in the exposure (issue 31)', () => {
  it('a site in an overridden country counts by our tier, labelled with the provider’s beside', async () => {
    type Risky = {
      iso: string;
      tier: string;
      name: string;
      weighted_risk: number;
      exposure: number;
    };
    const before = (await exposure()).riskiest as Risky[];
    const last = before.at(-1)!;
    expect(before[0]!.iso).not.toBe(last.iso);
    // Last: its country has no risk of the provider's in this batch, or a low one.
    expect(last.weighted_risk ?? -1).toBeLessThan(CRITICAL_FLOOR);
    const expires = new Date(stack.clock.now() + 48 * 3_600_000).toISOString();
    const set = await stack.app.inject({
      method: 'PUT',
      url: `/api/overrides/${last.iso}`,
      headers: { 'if-match': '"0"' },
      payload: { tier: 'crit', reason: 'Our convoy routes closed', expires },
    });
    expect(set.statusCode, set.body).toBe(200);
    const after = (await exposure()).riskiest as Risky[];
    // Ours is Critical now: its country counts as a risk in the Critical band would (at least the
    // band's floor), so the site's weighted risk and exposure rise; the exposure ranking (people
    // × weighted risk, issue 33) places it by that.
    const ours = after.find((s) => s.name === last.name)!;
    expect(ours.weighted_risk).toBeGreaterThanOrEqual(CRITICAL_FLOOR);
    expect(ours.exposure).toBeGreaterThan(last.exposure ?? 0);
    expect(ours).toMatchObject({
      iso: last.iso,
      tier: 'crit',
      provider_tier: last.tier,
      override: { tier: 'crit', reason: 'Our convoy routes closed' },
    });
    // The others keep the provider's tier, in their order, and no label.
    expect(after.filter((s) => s.iso !== last.iso)).toEqual(
      before
        .filter((s) => s.iso !== last.iso)
        .map((s) => expect.objectContaining({ name: s.name, iso: s.iso, tier: s.tier })),
    );
    expect(
      (after.find((s) => s.iso !== last.iso) as { override?: unknown }).override,
    ).toBeUndefined();
    const ended = await stack.app.inject({
      method: 'DELETE',
      url: `/api/overrides/${last.iso}`,
      headers: { 'if-match': '"1"' },
    });
    expect(ended.statusCode).toBe(200);
  });

  it('by_tier and moved count an overridden country by our tier, and say so', async () => {
    type Tier = { tier: string; sites: number; overridden?: number };
    type Move = { iso: string; tier_before: string | null; tier_now: string | null } & Record<
      string,
      unknown
    >;
    const before = await exposure();
    const riskiest = before.riskiest as Array<{ iso: string; tier: string }>;
    const target = riskiest.find((s) => s.tier !== 'crit')!;
    const sitesIn = riskiest.length; // at least one of ours is in `target`
    expect(sitesIn).toBeGreaterThan(0);
    const critBefore = (before.by_tier as Tier[]).find((t) => t.tier === 'crit')?.sites ?? 0;
    const expires = new Date(stack.clock.now() + 48 * 3_600_000).toISOString();
    const set = await stack.app.inject({
      method: 'PUT',
      url: `/api/overrides/${target.iso}`,
      headers: { 'if-match': '"0"' },
      payload: { tier: 'crit', reason: 'Our convoy routes closed', expires },
    });
    expect(set.statusCode, set.body).toBe(200);
    try {
      const after = await exposure();
      const crit = (after.by_tier as Tier[]).find((t) => t.tier === 'crit')!;
      const providerTier = (before.by_tier as Tier[]).find((t) => t.tier === target.tier)!;
      const moved =
        providerTier.sites -
        ((after.by_tier as Tier[]).find((t) => t.tier === target.tier)?.sites ?? 0);
      expect(moved).toBeGreaterThan(0);
      expect(crit.sites).toBe(critBefore + moved);
      expect(crit.overridden).toBe(moved);
      // Set after the previous batch: a move of our tier since then, the provider's beside it.
      const moves = (after.moved as { previous_batch: { countries: Move[] } }).previous_batch
        .countries;
      expect(moves.find((m) => m.iso === target.iso)).toMatchObject({
        tier_before: target.tier,
        tier_now: 'crit',
        provider_tier_before: target.tier,
        provider_tier_now: target.tier,
      });
    } finally {
      await stack.app.inject({
        method: 'DELETE',
        url: `/api/overrides/${target.iso}`,
        headers: { 'if-match': '"1"' },
      });
    }
  });
});
