import { describe, expect, it } from 'vitest';
import { allPlaces } from '../../src/demo-upstream/geography.js';
import { ABSENT_ISOS } from '../../src/demo-upstream/server.js';

describe('demo upstream: countries of the map', () => {
  const places = allPlaces();
  const byIso = new Map(places.map((place) => [place.iso, place]));

  it('has every country of the 110m map with an ISO alpha-3 code (174 of 177)', () => {
    expect(places).toHaveLength(174);
    expect(new Set(places.map((place) => place.iso)).size).toBe(174);
    for (const place of places) expect(place.iso).toMatch(/^[A-Z]{3}$/);
    for (const iso of ABSENT_ISOS) expect(byIso.has(iso)).toBe(true);
  });

  it('uses real names, some of which need CSV quoting', () => {
    expect(byIso.get('KOR')?.name).toBe('Korea, Republic of');
    expect(byIso.get('IRN')?.name).toBe('Iran, Islamic Republic of');
    expect(byIso.get('CIV')?.name).toBe("Côte d'Ivoire");
    expect(byIso.get('DEU')?.name).toBe('Germany');
    expect(byIso.get('KOR')?.shortName).toBe('South Korea');
  });

  it.each([
    // Label points from the largest polygon: mainland, not pulled by islands or exclaves.
    ['USA', 35, 45, -105, -90],
    ['FRA', 43, 49, -1, 5],
    ['RUS', 55, 70, 70, 110],
    ['NOR', 58, 70, 5, 25],
    ['FJI', -19, -16, 177, 179.9],
    ['UKR', 47, 51, 28, 34],
  ])('puts the label point of %s on its main land', (iso, latMin, latMax, lngMin, lngMax) => {
    const place = byIso.get(iso);
    expect(place?.lat).toBeGreaterThan(latMin);
    expect(place?.lat).toBeLessThan(latMax);
    expect(place?.lng).toBeGreaterThan(lngMin);
    expect(place?.lng).toBeLessThan(lngMax);
  });
});
