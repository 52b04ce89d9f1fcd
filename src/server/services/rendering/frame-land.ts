import { createRequire } from 'node:module';
import { geoMercator, geoPath } from 'd3-geo';
import type { MultiPolygon, Polygon } from 'geojson';
import { feature } from 'topojson-client';
import { presimplify, simplify } from 'topojson-simplify';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { worldViewBox } from '../../../shared/world-view.js';

/** The land's box: WORLD_VIEW's, this many units wide (its height follows the projection). */
export const LAND_WIDTH = 1000;

/**
 * Points whose triangle with their neighbours is smaller than this (in the atlas's quantised
 * units) are dropped: 39 KB of path becomes 8 KB (3.4 KB gzip), and a coastline moves by less
 * than a pixel at the sizes the frame's map is drawn (at most about 1,300 px wide).
 */
const MIN_TRIANGLE_AREA = 2;
/** Polygons wholly south of this are Antarctica, which the interactive map leaves out too. */
const SOUTHERN_LIMIT = -60;

type Land = Topology<{ land: GeometryCollection }>;

/**
 * The land of the world (Natural Earth 1:110m, world-atlas) as one SVG path in the frame map's
 * box: Web Mercator, as Leaflet draws the shapes that replace it, so coasts stay where they
 * are when the SPA takes over (issue 32). d3-geo cuts the polygons that cross the antimeridian.
 * Whole units: the box is 1,000 wide and drawn at most about 1,300 px. Made once per process.
 */
export function landPath(): { d: string; height: number } {
  const require = createRequire(import.meta.url);
  const topology = simplify(
    presimplify(require('world-atlas/land-110m.json') as Land),
    MIN_TRIANGLE_AREA,
  ) as Land;
  const land = feature(topology, topology.objects.land);
  const polygons = land.features.flatMap((item) => {
    const geometry = item.geometry as Polygon | MultiPolygon;
    return geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  });
  const inhabited = polygons.filter((rings) =>
    rings[0]!.some(([, lat]) => lat !== undefined && lat > SOUTHERN_LIMIT),
  );
  const box = worldViewBox();
  // d3's Mercator at a scale where WORLD_VIEW is LAND_WIDTH wide, moved so that its corner is 0, 0.
  const world = LAND_WIDTH / box.width;
  const projection = geoMercator()
    .scale(world / (2 * Math.PI))
    .translate([world * (0.5 - box.x), world * (0.5 - box.y)])
    .precision(0);
  const d = geoPath(projection).digits(0)({ type: 'MultiPolygon', coordinates: inhabited }) ?? '';
  return { d, height: Math.round(box.height * world) };
}
