import { describe, expect, it } from 'vitest';
import { buildWorldShapes } from '../../src/client/features/map/utils/build-world-shapes';
import { loadWorldShapes } from '../../src/client/features/map/utils/world-shapes';

describe('the shapes chunk', () => {
  it('holds the shapes built at build time (virtual:world-shapes), coordinates to 0.01°', () => {
    const shapes = loadWorldShapes();
    expect(shapes).toEqual(buildWorldShapes());
    expect(shapes.features).toHaveLength(176);
    expect(shapes.source).toBe('world-shapes:natural-earth-110m');
    const coordinates = shapes.features.flatMap((f) => f.geometry.coordinates.flat(3));
    expect(coordinates.length).toBeGreaterThan(10_000);
    for (const value of coordinates)
      expect(Math.abs(value * 100 - Math.round(value * 100))).toBeLessThan(1e-6);
  });

  it('keeps the shapes simplified, every ring still a polygon', () => {
    const rings = buildWorldShapes().features.flatMap((f) => f.geometry.coordinates.flat());
    const points = rings.reduce((sum, ring) => sum + ring.length, 0);
    // Natural Earth 110m has 9,934 points without Antarctica; simplified, about 5,500.
    expect(points).toBeGreaterThan(5_000);
    expect(points).toBeLessThan(6_000);
    for (const ring of rings) expect(ring.length).toBeGreaterThanOrEqual(4);
  });
});
