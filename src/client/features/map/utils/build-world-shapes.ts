import type { Feature, FeatureCollection, MultiPolygon, Polygon } from 'geojson';
import countryCodes from 'i18n-iso-countries';
import { feature } from 'topojson-client';
import { presimplify, simplify } from 'topojson-simplify';
import type { GeometryCollection, Topology } from 'topojson-specification';
import world from 'world-atlas/countries-110m.json' with { type: 'json' };
import { fixMultiPolygon } from './antimeridian.ts';

/**
 * Natural Earth 110m country shapes as the maps draw them: GeoJSON with ISO alpha-3 codes,
 * Antarctica dropped and the antimeridian repaired. Built once, at build time, by
 * scripts/vite/world-shapes.ts (the browser loads the result: ./world-shapes.ts), and by tests.
 * Converting the TopoJSON in the browser took about 15 ms of each first load, and the ISO code
 * table another chunk.
 */
export interface ShapeProperties {
  /** ISO alpha-3, or null for the few shapes without one (N. Cyprus, Somaliland). */
  iso3: string | null;
  name: string;
}
export type CountryShape = Feature<MultiPolygon, ShapeProperties>;
export type WorldShapes = FeatureCollection<MultiPolygon, ShapeProperties> & { source: string };

/** Marker for the budget script (it is in the shapes chunk), should the chunk's name ever change. */
export const WORLD_SHAPES_MARKER = 'world-shapes:natural-earth-110m';

const ANTARCTICA = '010';
/**
 * Points whose triangle with their neighbours is smaller than this (in the atlas's quantised
 * units: about 1.2e-6 square degrees, 15,000 m² at the equator) are dropped, on the shared
 * borders (topojson-simplify, so neighbours keep meeting). It removes 44 % of the points (9,934
 * to 5,527) with no difference to see at the map's zoom 6 (compared in screenshots), and
 * Leaflet's work on the first frame grows with the points: the map was drawn about 25 ms sooner
 * (docs/benchmarks.md, section 3).
 */
const MIN_TRIANGLE_AREA = 0.2;
/** Shapes Natural Earth draws that have no ISO numeric code; Kosovo's is the common user code. */
const EXTRA_CODES: Record<string, string> = { Kosovo: 'XKX' };

/**
 * Coordinates are kept to 0.01° (about 1 km): finer than these shapes' own generalisation, and
 * under a pixel up to the map's zoom 6 without tiles. With the simplification, the chunk is about
 * 30 KB gzip (the TopoJSON chunk it replaces was 39 KB).
 */
const round = (value: number): number => Math.round(value * 100) / 100;

export function buildWorldShapes(): WorldShapes {
  const topology = simplify(
    presimplify(world as unknown as Topology<{ countries: GeometryCollection<{ name: string }> }>),
    MIN_TRIANGLE_AREA,
  );
  const collection = feature(topology, topology.objects.countries) as FeatureCollection<
    Polygon | MultiPolygon,
    { name: string }
  >;
  const features: CountryShape[] = [];
  for (const shape of collection.features) {
    const id = shape.id === undefined ? '' : String(shape.id);
    // Antarctica in Web Mercator is a distorted band along the bottom edge; risk data has none.
    if (id === ANTARCTICA || !shape.geometry) continue;
    const name = shape.properties?.name ?? 'Unknown';
    const iso3 = (id && countryCodes.numericToAlpha3(id)) || EXTRA_CODES[name] || null;
    const polygons =
      shape.geometry.type === 'Polygon' ? [shape.geometry.coordinates] : shape.geometry.coordinates;
    features.push({
      type: 'Feature',
      id: iso3 ?? name,
      properties: { iso3, name },
      geometry: {
        type: 'MultiPolygon',
        coordinates: fixMultiPolygon(polygons).map((polygon) =>
          polygon.map((ring) => ring.map((point) => point.map(round))),
        ),
      },
    });
  }
  return { type: 'FeatureCollection', features, source: WORLD_SHAPES_MARKER };
}
