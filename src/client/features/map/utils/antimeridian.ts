import type { Position } from 'geojson';

/**
 * Natural Earth rings that cross the antimeridian (Russia's Chukotka, Fiji) jump from +180 to
 * −180 between neighbouring points; drawn flat, that jump is a stripe across the whole map.
 * Unwrapping makes each ring continuous (longitudes may run past ±180), and each polygon is then
 * moved by whole turns next to the country's main part, so Chukotka sits east of Siberia at
 * 170–190° instead of at the far left edge of the map.
 */
export function unwrapRing(ring: readonly Position[]): Position[] {
  const out: Position[] = [];
  let offset = 0;
  let previous: number | null = null;
  for (const point of ring) {
    const [lng = 0, lat = 0] = point;
    if (previous !== null) {
      const step = lng + offset - previous;
      if (step > 180) offset -= 360;
      else if (step < -180) offset += 360;
    }
    const x = lng + offset;
    out.push([x, lat]);
    previous = x;
  }
  return out;
}

function meanLongitude(ring: readonly Position[]): number {
  if (ring.length === 0) return 0;
  return ring.reduce((sum, [lng = 0]) => sum + lng, 0) / ring.length;
}

function shiftPolygon(polygon: Position[][], turns: number): Position[][] {
  if (turns === 0) return polygon;
  return polygon.map((ring) => ring.map(([lng = 0, lat = 0]) => [lng + turns * 360, lat]));
}

/** Rings made continuous, every part within half a turn of the largest part. */
export function fixMultiPolygon(polygons: readonly Position[][][]): Position[][][] {
  const unwrapped = polygons.map((polygon) => polygon.map(unwrapRing));
  const main = unwrapped.reduce<Position[][] | undefined>(
    (best, polygon) => ((polygon[0]?.length ?? 0) > (best?.[0]?.length ?? -1) ? polygon : best),
    undefined,
  );
  const reference = meanLongitude(main?.[0] ?? []);
  return unwrapped.map((polygon) => {
    const turns = Math.round((reference - meanLongitude(polygon[0] ?? [])) / 360);
    return shiftPolygon(polygon, turns);
  });
}

/** True when any consecutive pair of points jumps by more than half a turn (a stripe). */
export function hasAntimeridianJump(polygons: readonly Position[][][]): boolean {
  return polygons.some((polygon) =>
    polygon.some((ring) =>
      ring.some((point, i) => i > 0 && Math.abs((point[0] ?? 0) - (ring[i - 1]?.[0] ?? 0)) > 180),
    ),
  );
}
