import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ABSENT_ISOS } from '../../src/demo-upstream/server.js';
import { CATEGORY_NAMES } from '../../src/shared/categories.js';
import { countryResponseSchema } from '../../src/shared/schemas/responses.js';
import { tierForRisk } from '../../src/shared/tiers.js';
import { startHarness, type Harness } from '../helpers/demo-harness.js';

const EVENT_FIELDS = [
  'ts',
  'headline',
  'url',
  'source',
  'source_name',
  'source_category',
  'source_tier',
  'role',
  'breaking',
  'state_affiliated',
];

describe('demo upstream: GET /api/v1/country/{iso}', () => {
  let h: Harness;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let countries: any[];
  beforeAll(async () => {
    h = await startHarness({ tier: 'Custom' });
    countries = (await h.getJson('/api/v1/export?format=json')).body.countries;
  });
  afterAll(() => h.close());

  it('answers the documented shape for a country in the payload', async () => {
    const { status, headers, body } = await h.getJson('/api/v1/country/UKR');
    expect(status).toBe(200);
    expect(headers.get('cache-control')).toBe('public, max-age=30');
    expect(headers.get('x-ratelimit-limit')).toBe('1000');
    expect(countryResponseSchema.safeParse(body).success).toBe(true);
    expect(body.ok).toBe(true);
    expect(body.as_of).toMatch(/\.\d{3}Z$/);
    const country = body.country;
    expect(country).toMatchObject({ iso: 'UKR', name: 'Ukraine' });
    expect(country.tier).toBe(tierForRisk(country.risk));
    expect(Object.keys(country.categories)).toEqual([...CATEGORY_NAMES]);
    expect(country.events.length).toBeGreaterThan(0);
    for (const event of country.events) expect(Object.keys(event)).toEqual(EVENT_FIELDS);
  });

  it('accepts a lower-case code and answers with the upper-case ISO', async () => {
    const lower = await h.getJson('/api/v1/country/fra');
    expect(lower.status).toBe(200);
    expect(lower.body.country.iso).toBe('FRA');
    expect(lower.body).toEqual((await h.getJson('/api/v1/country/FRA')).body);
  });

  it.each(['UK', 'UKRA', 'U1R', 'U-R', '%C3%9CKR', 'AB%20', '..%2F'])(
    'answers 400 for the malformed code %s',
    async (code) => {
      const { status, body } = await h.getJson(`/api/v1/country/${code}`);
      expect(status).toBe(400);
      expect(body).toEqual({ ok: false, error: expect.stringMatching(/ISO/) });
    },
  );

  it.each([...ABSENT_ISOS, 'ZZZ', 'XKX'])('answers 404 for %s, not in the payload', async (iso) => {
    const { status, body } = await h.getJson(`/api/v1/country/${iso}`);
    expect(status).toBe(404);
    expect(body).toEqual({ ok: false, error: expect.stringContaining(iso) });
  });

  it('keeps the absent countries out of the hotspot list and the export too', () => {
    const isos = countries.map((country) => country.iso);
    for (const iso of ABSENT_ISOS) expect(isos).not.toContain(iso);
  });

  it('sends at most 20 events per country, newest first, with roles locus or actor', () => {
    let capped = 0;
    for (const country of countries) {
      expect(country.events.length).toBeLessThanOrEqual(20);
      if (country.events.length === 20) capped += 1;
      const times = country.events.map((event: { ts: string }) => Date.parse(event.ts));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      for (const event of country.events) {
        expect(['locus', 'actor']).toContain(event.role);
        expect(event.url).toMatch(/^https:\/\/[a-z0-9.-]+\.example\//);
        expect(event.url).toContain(event.source);
        expect(typeof event.breaking).toBe('boolean');
        expect(typeof event.state_affiliated).toBe('boolean');
      }
    }
    expect(capped).toBeGreaterThan(0); // some countries have more news than fits
    const roles = new Set(countries.flatMap((c) => c.events.map((e: { role: string }) => e.role)));
    expect([...roles].sort()).toEqual(['actor', 'locus']);
  });

  it('has ten categories with weights summing to 1 and scores split into static + active', () => {
    for (const country of countries) {
      const parts = CATEGORY_NAMES.map((name) => country.categories[name]);
      const weightSum = parts.reduce((sum, part) => sum + part.weight, 0);
      expect(weightSum).toBeCloseTo(1, 9);
      for (const part of parts) {
        expect(part.score).toBeCloseTo(part.static + part.active, 2);
        expect(part.score).toBeGreaterThanOrEqual(0);
        expect(part.score).toBeLessThanOrEqual(95);
      }
      // The headline components are the weighted sums of the categories (to rounding).
      const staticSum = parts.reduce((sum, part) => sum + part.weight * part.static, 0);
      const activeSum = parts.reduce((sum, part) => sum + part.weight * part.active, 0);
      expect(Math.abs(country.static - staticSum)).toBeLessThanOrEqual(0.006);
      expect(Math.abs(country.active - activeSum)).toBeLessThanOrEqual(0.006);
      expect(country.risk).toBeCloseTo(country.static + country.active, 2);
    }
  });

  it('counts the distinct sources of a country in source_count', () => {
    const ukraine = countries.find((country) => country.iso === 'UKR');
    const distinct = new Set(ukraine.events.map((event: { source: string }) => event.source));
    // The 20 events shown are a subset of the window the count covers.
    expect(ukraine.source_count).toBeGreaterThanOrEqual(distinct.size);
    const silent = countries.filter((country) => country.events.length === 0);
    for (const country of silent) expect(country.source_count).toBe(0);
  });

  it('answers the same country object as the JSON export', async () => {
    const { body } = await h.getJson('/api/v1/country/KOR');
    expect(body.country).toEqual(countries.find((country) => country.iso === 'KOR'));
  });
});
