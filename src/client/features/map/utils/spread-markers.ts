/** A round marker in screen pixels: centre and radius. */
export interface Disc {
  x: number;
  y: number;
  r: number;
}

const GOLDEN_ANGLE = Math.PI * (3 - Math.sqrt(5));
const MAX_ROUNDS = 80;

/** Half of WCAG 2.2's minimum target (2.5.8): 24 × 24 CSS px. */
export const TARGET_RADIUS = 12;

/**
 * How far apart two markers' centres must be so each keeps a 24 px disc around its centre that
 * the other does not cover (a marker's hit area is at least that disc, see map.css): the larger
 * hit radius plus 12 px. Small phone markers thus sit 24 px apart, the WCAG 2.2 target size.
 */
export function minimumDistance(a: Disc, b: Disc, gap: number): number {
  const discs = Math.max(a.r, b.r, TARGET_RADIUS) + TARGET_RADIUS;
  // A marker under 24 px must also keep its 24 px disc clear of its neighbour's box (how axe's
  // `target-size` and browsers measure a target: a square of side 2r), corner included.
  const clearOfA = b.r < TARGET_RADIUS ? a.r * Math.SQRT2 + TARGET_RADIUS : 0;
  const clearOfB = a.r < TARGET_RADIUS ? b.r * Math.SQRT2 + TARGET_RADIUS : 0;
  return Math.max(discs, clearOfA, clearOfB) + gap;
}

/**
 * How far apart, in the direction (`dx`, `dy`), two markers' centres must be: `minimumDistance`,
 * and no marker's box (a square of side 2r, what axe's `target-size` measures) over another's.
 * Boxes that overlapped a little (30 px apart for 32 px markers, allowed by the discs alone) left
 * a marker among diagonal neighbours an unobscured part of 23 × 29.5 px: Lighthouse's
 * accessibility audit failed the desktop overview on it (97). Square boxes clear each other when
 * the larger of |dx| and |dy| reaches the two half-sides, so diagonally they sit up to √2 times
 * further apart.
 */
export function requiredDistance(a: Disc, b: Disc, dx: number, dy: number, gap: number): number {
  const length = Math.hypot(dx, dy);
  const along = length < 1e-9 ? 1 : Math.max(Math.abs(dx), Math.abs(dy)) / length;
  return Math.max(minimumDistance(a, b, gap), (a.r + b.r + gap) / along);
}

/**
 * Fans overlapping markers out, in pixels: pairs closer than `requiredDistance` are pushed apart
 * along the line between them (equal shares) until none is, so every marker's centre is its own.
 * Markers at the same point leave in different directions (golden-angle spiral). Markers that
 * do not overlap anything keep their place. Deterministic: the same input gives the same output.
 */
export function spreadDiscs(discs: readonly Disc[], gap = 2): Array<{ x: number; y: number }> {
  const points = discs.map((d) => ({ x: d.x, y: d.y }));
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    let moved = false;
    for (let i = 0; i < discs.length; i += 1) {
      for (let j = i + 1; j < discs.length; j += 1) {
        const a = points[i]!;
        const b = points[j]!;
        let dx = b.x - a.x;
        let dy = b.y - a.y;
        let distance = Math.hypot(dx, dy);
        if (distance < 1e-6) {
          const angle = (i + j) * GOLDEN_ANGLE;
          dx = Math.cos(angle);
          dy = Math.sin(angle);
          distance = 1;
        }
        const need = requiredDistance(discs[i]!, discs[j]!, dx, dy, gap);
        if (Math.hypot(b.x - a.x, b.y - a.y) >= need - 1e-6) continue;
        // A little past the need, so rounding of pixel positions cannot leave them touching.
        const push = (need - Math.hypot(b.x - a.x, b.y - a.y) + 0.5) / 2;
        const ux = dx / distance;
        const uy = dy / distance;
        a.x -= ux * push;
        a.y -= uy * push;
        b.x += ux * push;
        b.y += uy * push;
        moved = true;
      }
    }
    if (!moved) break;
  }
  return points;
}
