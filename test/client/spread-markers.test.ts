import { describe, expect, it } from 'vitest';
import { requiredDistance, spreadDiscs } from '../../src/client/features/map/utils/spread-markers';

function closestPairGap(discs: { x: number; y: number; r: number }[]): number {
  let worst = Infinity;
  for (let i = 0; i < discs.length; i += 1) {
    for (let j = i + 1; j < discs.length; j += 1) {
      const a = discs[i]!;
      const b = discs[j]!;
      const need = requiredDistance(a, b, b.x - a.x, b.y - a.y, 2);
      worst = Math.min(worst, Math.hypot(a.x - b.x, a.y - b.y) - need);
    }
  }
  return worst;
}

describe('fanning out overlapping markers', () => {
  it('leaves markers that do not overlap where they are', () => {
    const discs = [
      { x: 0, y: 0, r: 10 },
      { x: 100, y: 0, r: 10 },
    ];
    expect(spreadDiscs(discs)).toEqual([
      { x: 0, y: 0 },
      { x: 100, y: 0 },
    ]);
  });

  it('separates a cluster (Israel under Palestine, three at one point) until no centre is covered', () => {
    const discs = [
      { x: 50, y: 50, r: 16 },
      { x: 52, y: 51, r: 14 },
      { x: 50, y: 50, r: 12 },
      { x: 50, y: 50, r: 12 },
      { x: 70, y: 40, r: 9 },
    ];
    const placed = spreadDiscs(discs).map((p, i) => ({ ...p, r: discs[i]!.r }));
    expect(closestPairGap(placed)).toBeGreaterThanOrEqual(-1e-6);
    // Moved no further than needed: all stay near where they were.
    for (const [i, p] of placed.entries()) {
      expect(Math.hypot(p.x - discs[i]!.x, p.y - discs[i]!.y)).toBeLessThan(60);
    }
    // Deterministic.
    expect(spreadDiscs(discs)).toEqual(spreadDiscs(discs));
  });

  it('keeps small (phone) markers 24 px apart, the WCAG 2.2 target size', () => {
    const discs = [
      { x: 0, y: 0, r: 6 },
      { x: 3, y: 0, r: 6 },
      { x: 0, y: 4, r: 7 },
    ];
    const placed = spreadDiscs(discs);
    for (let i = 0; i < placed.length; i += 1) {
      for (let j = i + 1; j < placed.length; j += 1) {
        const a = placed[i]!;
        const b = placed[j]!;
        expect(Math.hypot(a.x - b.x, a.y - b.y)).toBeGreaterThanOrEqual(24);
      }
    }
  });

  it("puts no marker's box over another's, diagonal neighbours included (axe's target-size)", () => {
    // Four 32 px markers around a fifth, as the Levant's are at a desktop's first zoom: each
    // 30 px from the centre, which the 24 px discs alone allow.
    const around = [45, 135, 225, 315].map((degrees) => ({
      x: 100 + 30 * Math.cos((degrees * Math.PI) / 180),
      y: 100 + 30 * Math.sin((degrees * Math.PI) / 180),
      r: 16,
    }));
    const discs = [{ x: 100, y: 100, r: 16 }, ...around];
    const placed = spreadDiscs(discs).map((p, i) => ({ ...p, r: discs[i]!.r }));
    for (let i = 0; i < placed.length; i += 1) {
      for (let j = i + 1; j < placed.length; j += 1) {
        const a = placed[i]!;
        const b = placed[j]!;
        const apart = Math.max(Math.abs(a.x - b.x), Math.abs(a.y - b.y));
        expect(apart, `markers ${i} and ${j}`).toBeGreaterThanOrEqual(a.r + b.r);
      }
    }
  });
});
