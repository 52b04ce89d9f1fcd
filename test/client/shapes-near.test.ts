import { describe, expect, it } from 'vitest';
import { shapesNear } from '../../src/client/features/map/utils/shapes-near';
import { loadWorldShapes } from '../../src/client/features/map/utils/world-shapes';

// The country page's small map draws only the shapes near its country (issue 32).
const world = loadWorldShapes().features;
const codes = (region: [number, number, number, number]) =>
  new Set(shapesNear(world, region).map((shape) => shape.properties.iso3));

describe('the shapes near a country', () => {
  it('keeps the neighbours of Ukraine and leaves the far world out', () => {
    // Ukraine's box padded as the locator map pads it.
    const near = codes([30, 8, 70, 60]);
    for (const iso of ['UKR', 'POL', 'RUS', 'BLR', 'ROU', 'TUR']) expect(near, iso).toContain(iso);
    for (const iso of ['BRA', 'AUS', 'USA', 'CHN']) expect(near, iso).not.toContain(iso);
    expect(near.size).toBeLessThan(world.length / 2);
  });

  it('keeps Russia beside Alaska, across 180°', () => {
    // West of 180°: Russia's rings run east past 180 (antimeridian.ts), 190° is -170°.
    const near = codes([55, -180, 72, -160]);
    expect(near).toContain('USA');
    expect(near).toContain('RUS');
  });

  it('keeps nothing for a region over the open sea', () => {
    expect(codes([-60, -140, -50, -120]).size).toBe(0);
  });
});
