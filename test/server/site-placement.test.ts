import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import pointToPolygonDistance from '@turf/point-to-polygon-distance';
import { describe, expect, it } from 'vitest';
import {
  edgeKm,
  insideRuns,
  nearBox,
  partGrid,
  SitePlacer,
} from '../../src/server/services/sites/placement.js';

/*
 * Placing a site from its coordinates against the 1:50m country shapes: inside a country, within
 * 25 km of a coast or border (nearest country, "placed by distance"), or refused in words; and
 * the countries within 300 km it keeps. The fast flat-projection arithmetic is checked against
 * turf's own point-in-polygon and geodesic distance.
 */
const placer = new SitePlacer();

describe('placement', () => {
  it('a point inside a country is placed there', () => {
    const warsaw = placer.place(52.23, 21.01);
    expect(warsaw).toMatchObject({ ok: true, iso: 'POL', placedBy: 'inside' });
    const singapore = placer.place(1.29, 103.85);
    expect(singapore).toMatchObject({ ok: true, iso: 'SGP', placedBy: 'inside' });
  });

  it('a point in the sea within 25 km of a coast goes to the nearest country, by distance', () => {
    // The Strait of Dover, ~10 km off Dover and ~28 km from France.
    const strait = placer.place(51.1, 1.45);
    expect(strait).toMatchObject({ ok: true, iso: 'GBR', placedBy: 'distance' });
    if (!strait.ok) return;
    expect(strait.nearby[0]).toEqual({ iso: 'GBR', km: 0 });
    const france = strait.nearby.find((n) => n.iso === 'FRA');
    expect(france?.km).toBeGreaterThan(20);
    expect(france?.km).toBeLessThan(40);
  });

  it('a point by a border keeps the neighbour and its distance', () => {
    // Przemyśl, Poland, about 10 km from Ukraine.
    const town = placer.place(49.78, 22.77);
    expect(town).toMatchObject({ ok: true, iso: 'POL', placedBy: 'inside' });
    if (!town.ok) return;
    const ukraine = town.nearby.find((n) => n.iso === 'UKR');
    expect(ukraine?.km).toBeGreaterThan(3);
    expect(ukraine?.km).toBeLessThan(15);
    // Nearest first, none beyond 300 km.
    const kms = town.nearby.map((n) => n.km);
    expect(kms).toEqual([...kms].sort((a, b) => a - b));
    expect(Math.max(...kms)).toBeLessThan(300);
  });

  it('a point far at sea is refused in words', () => {
    expect(placer.place(30, -40)).toEqual({
      ok: false,
      reason: expect.stringMatching(/more than 300 km from any country/),
    });
    // 26-300 km out: refused, naming the nearest country and how far it is.
    const offshore = placer.place(50.2, -7.5);
    expect(offshore).toEqual({
      ok: false,
      reason: expect.stringMatching(/^the point is \d+ km from the nearest country \([A-Z]{3}\)/),
    });
  });

  it('NaN and out-of-range coordinates are refused, naming the coordinate', () => {
    expect(placer.place(Number.NaN, 10)).toEqual({
      ok: false,
      reason: expect.stringMatching(/^lat/),
    });
    expect(placer.place(91, 10)).toEqual({ ok: false, reason: expect.stringMatching(/^lat/) });
    expect(placer.place(10, -180.5)).toEqual({ ok: false, reason: expect.stringMatching(/^lng/) });
    expect(placer.place(10, Infinity)).toEqual({
      ok: false,
      reason: expect.stringMatching(/^lng/),
    });
  });

  it('a country the organisation gives wins over the shapes, at 0 km', () => {
    const given = placer.place(49.78, 22.77, 'UKR');
    expect(given).toMatchObject({ ok: true, iso: 'UKR', placedBy: 'given' });
    if (!given.ok) return;
    expect(given.nearby.filter((n) => n.iso === 'UKR')).toEqual([{ iso: 'UKR', km: 0 }]);
    expect(given.nearby.some((n) => n.iso === 'POL')).toBe(true);
  });
});

describe('the fast arithmetic agrees with turf', () => {
  // A fixed pseudo-random walk, so a failure can be replayed.
  let seed = 42;
  const random = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };

  it('inside or not: the same answer as booleanPointInPolygon', () => {
    const parts = placer.shapes;
    let compared = 0;
    for (let i = 0; i < 400; i += 1) {
      const lat = random() * 130 - 55;
      const lng = random() * 360 - 180;
      for (const part of parts) {
        const [west, south, east, north] = part.box;
        if (lat < south || lat > north || lng < west || lng > east) continue;
        expect(insideRuns(lat, lng, part.runs), `${lat},${lng} ${part.iso}`).toBe(
          booleanPointInPolygon([lng, lat], part.polygon),
        );
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(100);
  });

  it('distance to a shape within 300 km: within 1 % (and 0.5 km) of the geodesic distance', () => {
    const poland = placer.shapes.filter((p) => p.iso === 'POL');
    // Within the 300 km the sites keep.
    const points: Array<[number, number]> = [
      [54.9, 14.5],
      [49.0, 24.0],
      [55.5, 18.0],
      [50.5, 12.0],
      [53.9, 27.5],
    ];
    for (const [lat, lng] of points) {
      const ours = Math.min(...poland.map((p) => edgeKm(lat, lng, p.runs, 2_000)));
      const turf = Math.min(
        ...poland.map((p) =>
          Math.abs(pointToPolygonDistance([lng, lat], p.polygon, { units: 'kilometers' })),
        ),
      );
      expect(Math.abs(ours - turf), `${lat},${lng}: ${ours} vs ${turf}`).toBeLessThan(
        0.5 + turf * 0.01,
      );
    }
  });
});

describe('the grid of parts (what keeps a 20,000-site import fast)', () => {
  it('lists for a point every part whose widened box holds it: it only skips work', () => {
    const parts = placer.shapes;
    const grid = partGrid(parts, 300);
    let seed = 5;
    const random = (): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const points: Array<[number, number]> = [
      [90, 180],
      [-90, -180],
      [0, 180],
      [71.9, -179.9],
    ];
    for (let i = 0; i < 1500; i += 1) {
      points.push([random() * 180 - 90, random() * 360 - 180]);
      // Near the poles and the antimeridian, where the widening is largest and wraps.
      points.push(
        [80 + random() * 10, random() * 360 - 180],
        [random() * 180 - 90, 176 + random() * 4],
      );
    }
    for (const [lat, lng] of points) {
      const row = Math.min(89, Math.floor((lat + 90) / 2));
      const column = ((Math.floor((lng + 180) / 2) % 180) + 180) % 180;
      const listed = new Set(grid[row * 180 + column]);
      const missing = parts.filter((part) => nearBox(lat, lng, part.box, 300) && !listed.has(part));
      expect(missing.map((m) => `${m.iso} at ${lat},${lng}`)).toEqual([]);
    }
  });
});

describe('warming the placer at start-up (issue 32: no request waits behind it)', () => {
  it('makes the same shapes in small pieces, with a turn for others between them', async () => {
    let pauses = 0;
    const warmed = new SitePlacer();
    await warmed.warm(() => {
      pauses += 1;
      return Promise.resolve();
    });
    // 241 countries 24 per turn, 1,610 parts 200 per turn, the grid: 11 + 9 + 1 turns.
    expect(pauses).toBe(21);
    expect(warmed.shapes.map((part) => [part.iso, part.box, part.runs.length])).toEqual(
      placer.shapes.map((part) => [part.iso, part.box, part.runs.length]),
    );
    for (const [lat, lng] of [
      [52.23, 21.01],
      [51.1, 1.45],
      [1.29, 103.85],
      [0, -150],
    ] as const) {
      expect(warmed.place(lat, lng)).toEqual(placer.place(lat, lng));
    }
    // Warmed once: a second call does nothing.
    await warmed.warm(() => {
      pauses += 1;
      return Promise.resolve();
    });
    expect(pauses).toBe(21);
  });
});
