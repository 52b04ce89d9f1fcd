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
});
