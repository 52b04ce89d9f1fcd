import { describe, expect, it } from 'vitest';
import { LAND_WIDTH, landPath } from '../../src/server/services/rendering/frame-land.js';
import { placeInWorldView } from '../../src/shared/world-view.js';

// The first frame's land (issue 32) lies where the interactive map draws its shapes: in the
// frame map's box, with the dots' projection (shared/world-view.ts).
describe("the first frame's land", () => {
  const land = landPath();
  const points = [...land.d.matchAll(/(-?\d+),(-?\d+)/g)].map(([, x, y]) => [Number(x), Number(y)]);
  const unitsOf = (lat: number, lng: number) => {
    const place = placeInWorldView(lat, lng);
    return [(place.left / 100) * LAND_WIDTH, (place.top / 100) * land.height];
  };
  const nearest = (lat: number, lng: number) => {
    const [x, y] = unitsOf(lat, lng);
    return Math.min(...points.map(([px, py]) => Math.hypot(px! - x!, py! - y!)));
  };

  it('puts coasts where the map projects them', () => {
    expect(points.length).toBeGreaterThan(500);
    // Cape Agulhas, Cabo da Roca, Cape York, Tierra del Fuego, Kamchatka: within 10 units (at
    // most 13 px on a laptop), what 1:110m and the frame's simplification leave of a cape.
    for (const [lat, lng] of [
      [-34.83, 20.0],
      [38.78, -9.5],
      [-10.69, 142.53],
      [-54.9, -67.3],
      [51.0, 156.7],
    ] as const) {
      expect(nearest(lat, lng), `${lat}, ${lng}`).toBeLessThan(10);
    }
  });

  it('leaves Antarctica out, as the interactive map does', () => {
    const [, southernmost] = unitsOf(-60, 0);
    expect(Math.max(...points.map(([, y]) => y!))).toBeLessThan(southernmost!);
  });

  it('is small enough to send with every overview', () => {
    expect(land.d.length).toBeLessThan(12_000);
  });
});
