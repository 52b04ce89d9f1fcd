import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORY_NAMES } from '../../src/shared/categories.js';
import { hotspotsResponseSchema } from '../../src/shared/schemas/responses.js';
import { tierForRisk } from '../../src/shared/tiers.js';
import { DOCUMENTED_HOTSPOT_FIELDS } from '../fixtures/documented-fields.js';
import { startHarness, type Harness } from '../helpers/demo-harness.js';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('demo upstream: GET /api/v1/hotspots', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ tier: 'Custom' });
  });
  afterAll(() => h.close());

  it('answers the documented shape with 20 hotspots by default, ordered by risk', async () => {
    const { status, headers, body } = await h.getJson('/api/v1/hotspots');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^application\/json/);
    expect(headers.get('cache-control')).toBe('public, max-age=30');
    expect(headers.get('x-ratelimit-limit')).toBe('1000');
    expect(headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    expect(hotspotsResponseSchema.safeParse(body).success).toBe(true);
    expect(body.ok).toBe(true);
    expect(body.as_of).toMatch(ISO_MS);
    expect(body.methodology_version).toEqual(expect.any(String));
    expect(body.count).toBe(20);
    expect(body.hotspots).toHaveLength(20);
    const risks = body.hotspots.map((row: { risk: number }) => row.risk);
    expect(risks).toEqual([...risks].sort((a, b) => b - a));
    for (const row of body.hotspots) {
      expect(Object.keys(row)).toEqual(DOCUMENTED_HOTSPOT_FIELDS);
      expect(row.iso).toMatch(/^[A-Z]{3}$/);
      expect(row.tier).toBe(tierForRisk(row.risk));
      expect(row.risk).toBeCloseTo(row.static + row.active, 2);
      expect(Number.isInteger(row.confidence)).toBe(true);
      expect(Number.isInteger(row.source_count)).toBe(true);
      expect(row.threat_vectors.length).toBeGreaterThan(0);
      expect(Math.abs(row.lat)).toBeLessThanOrEqual(90);
      expect(Math.abs(row.lng)).toBeLessThanOrEqual(180);
    }
  });

  it('sends the global summary with ggri, tier, delta_vs_yesterday, static, active, events_24h', async () => {
    const { body } = await h.getJson('/api/v1/hotspots?limit=1');
    const global = body.global;
    expect(Object.keys(global).sort()).toEqual(
      ['active', 'delta_vs_yesterday', 'events_24h', 'ggri', 'static', 'tier'].sort(),
    );
    expect(global.ggri).toBeGreaterThan(0);
    expect(global.ggri).toBeLessThanOrEqual(95);
    expect(global.tier).toBe(tierForRisk(global.ggri));
    expect(global.ggri).toBeCloseTo(global.static + global.active, 2);
    expect(Number.isInteger(global.events_24h)).toBe(true);
    expect(global.events_24h).toBeGreaterThan(0);
  });

  it.each([1, 7, 50])('honours limit=%i, counting the rows', async (limit) => {
    const { body } = await h.getJson(`/api/v1/hotspots?limit=${limit}`);
    expect(body.count).toBe(limit);
    expect(body.hotspots).toHaveLength(limit);
  });

  it('returns the same ranking whatever the limit (a shorter list is a prefix)', async () => {
    const long = (await h.getJson('/api/v1/hotspots?limit=50')).body.hotspots;
    const short = (await h.getJson('/api/v1/hotspots?limit=10')).body.hotspots;
    expect(short).toEqual(long.slice(0, 10));
  });

  it('filters by tier before taking the limit', async () => {
    const all = (await h.getJson('/api/v1/hotspots?limit=50')).body.hotspots;
    const { body } = await h.getJson('/api/v1/hotspots?tier=high,mod&limit=50');
    expect(body.hotspots.length).toBeGreaterThan(0);
    expect(body.count).toBe(body.hotspots.length);
    for (const row of body.hotspots) expect(['high', 'mod']).toContain(row.tier);
    expect(body.hotspots[0]).toEqual(all.find((row: { tier: string }) => row.tier === 'high'));
    const crit = (await h.getJson('/api/v1/hotspots?tier=crit')).body;
    expect(crit.hotspots.every((row: { tier: string }) => row.tier === 'crit')).toBe(true);
    expect(crit.count).toBe(all.filter((row: { tier: string }) => row.tier === 'crit').length);
  });

  it('adds categories and up to 5 events per row with include', async () => {
    const { body } = await h.getJson('/api/v1/hotspots?include=categories,events&limit=50');
    let maxEvents = 0;
    for (const row of body.hotspots) {
      expect(Object.keys(row.categories)).toEqual([...CATEGORY_NAMES]);
      for (const name of CATEGORY_NAMES) {
        expect(Object.keys(row.categories[name]).sort()).toEqual([
          'active',
          'score',
          'static',
          'weight',
        ]);
      }
      expect(row.events.length).toBeLessThanOrEqual(5);
      maxEvents = Math.max(maxEvents, row.events.length);
    }
    expect(maxEvents).toBe(5);
    const detail = (await h.getJson(`/api/v1/country/${body.hotspots[0].iso}`)).body.country;
    expect(body.hotspots[0].categories).toEqual(detail.categories);
    expect(body.hotspots[0].events).toEqual(detail.events.slice(0, 5));

    const onlyEvents = (await h.getJson('/api/v1/hotspots?include=events&limit=3')).body.hotspots;
    expect(onlyEvents[0].events).toBeDefined();
    expect(onlyEvents[0].categories).toBeUndefined();
  });

  const badQueries: Array<[string, RegExp]> = [
    ['limit=0', /limit/],
    ['limit=51', /limit/],
    ['limit=-1', /limit/],
    ['limit=abc', /limit/],
    ['limit=2.5', /limit/],
    ['limit=', /limit/],
    ['limit=1e1', /limit/],
    ['limit=10&limit=20', /limit/],
    ['tier=', /tier/],
    ['tier=extreme', /tier/],
    ['tier=crit,,high', /tier/],
    ['tier=crit,', /tier/],
    ['tier=CRIT', /tier/],
    ['include=', /include/],
    ['include=history', /include/],
    ['include=categories,,events', /include/],
  ];
  it.each(badQueries)('answers 400 naming the parameter for %s', async (query, named) => {
    const { status, body } = await h.getJson(`/api/v1/hotspots?${query}`);
    expect(status).toBe(400);
    expect(body).toEqual({ ok: false, error: expect.stringMatching(named) });
  });

  it('ignores unknown query parameters (the API is additive)', async () => {
    expect((await h.get('/api/v1/hotspots?limit=2&foo=bar')).status).toBe(200);
  });
});
