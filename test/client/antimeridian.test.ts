import { describe, expect, it } from 'vitest';
import {
  fixMultiPolygon,
  hasAntimeridianJump,
  unwrapRing,
} from '../../src/client/features/map/utils/antimeridian';
import { buildWorldShapes } from '../../src/client/features/map/utils/build-world-shapes';

describe('antimeridian repair', () => {
  it('unwraps a ring that jumps from +179 to −179 into a continuous one', () => {
    const ring = [
      [178, 0],
      [179.5, 1],
      [-179.5, 1],
      [-178, 0],
      [178, 0],
    ];
    expect(unwrapRing(ring)).toEqual([
      [178, 0],
      [179.5, 1],
      [180.5, 1],
      [182, 0],
      [178, 0],
    ]);
  });

  it('moves a detached part next to the main part', () => {
    const main = [
      [
        [170, 60],
        [175, 61],
        [170, 62],
        [170, 60],
      ],
    ];
    const detached = [
      [
        [-175, 65],
        [-172, 66],
        [-175, 67],
        [-175, 65],
      ],
    ];
    const [, moved] = fixMultiPolygon([main, detached]);
    expect(moved![0]![0]).toEqual([185, 65]);
  });

  it('leaves no stripes in the real shapes and drops Antarctica', () => {
    const shapes = buildWorldShapes();
    const byIso = new Map(shapes.features.map((f) => [f.properties.iso3, f]));
    expect(byIso.has('ATA')).toBe(false);
    for (const f of shapes.features) {
      expect(hasAntimeridianJump(f.geometry.coordinates), f.properties.name).toBe(false);
    }
    // Russia's Chukotka now runs east past 180°; Fiji sits around 180° in one piece.
    const russiaLngs = byIso
      .get('RUS')!
      .geometry.coordinates.flat(2)
      .map(([lng]) => lng!);
    expect(Math.max(...russiaLngs)).toBeGreaterThan(180);
    expect(Math.min(...russiaLngs)).toBeGreaterThan(0);
    const fijiLngs = byIso
      .get('FJI')!
      .geometry.coordinates.flat(2)
      .map(([lng]) => lng!);
    expect(Math.max(...fijiLngs) - Math.min(...fijiLngs)).toBeLessThan(10);
    expect(byIso.get('FRA')!.properties.name).toBe('France');
    expect(byIso.get('XKX')!.properties.name).toBe('Kosovo');
  });
});
