import type { CountryShape } from './world-shapes';

/** South, west, north, east, in degrees (east may pass 180: see antimeridian.ts). */
type Box = readonly [number, number, number, number];

const boxes = new WeakMap<CountryShape, Box>();

function boxOf(shape: CountryShape): Box {
  const known = boxes.get(shape);
  if (known) return known;
  let [south, west, north, east] = [90, Infinity, -90, -Infinity];
  for (const polygon of shape.geometry.coordinates) {
    for (const [lng, lat] of polygon[0] ?? []) {
      if (lat === undefined || lng === undefined) continue;
      south = Math.min(south, lat);
      north = Math.max(north, lat);
      west = Math.min(west, lng);
      east = Math.max(east, lng);
    }
  }
  const box: Box = [south, west, north, east];
  boxes.set(shape, box);
  return box;
}

const overlaps = (a: Box, b: Box): boolean =>
  a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];

/**
 * The shapes whose outer rings' boxes meet `region` (or the region a world to either side: the
 * rings that cross 180° run past it). The country page's small map shows a few neighbours of
 * one country and never pans: drawing the other ~160 shapes of the world cost a phone's main
 * thread a DOM element, a style and a path each, for nothing on screen (issue 32).
 */
export function shapesNear(shapes: readonly CountryShape[], region: Box): CountryShape[] {
  const regions = [-360, 0, 360].map((shift): Box => [
    region[0],
    region[1] + shift,
    region[2],
    region[3] + shift,
  ]);
  return shapes.filter((shape) => regions.some((r) => overlaps(boxOf(shape), r)));
}
