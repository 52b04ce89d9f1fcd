import type { Feature, FeatureCollection, MultiPolygon, Polygon } from 'geojson';
import countryCodes from 'i18n-iso-countries';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import world from 'world-atlas/countries-110m.json';
import { fixMultiPolygon } from './antimeridian';

/**
 * Natural Earth 110m country shapes, shipped in the bundle so the base map needs no network.
 * This module is imported lazily: it becomes its own chunk (`world-shapes-*.js`, checked against
 * a 60 KB gzip budget by scripts/check-budgets.mjs) and does not weigh on the first paint.
 */
export interface ShapeProperties {
  /** ISO alpha-3, or null for the few shapes without one (N. Cyprus, Somaliland). */
  iso3: string | null;
  name: string;
}
export type CountryShape = Feature<MultiPolygon, ShapeProperties>;
export type WorldShapes = FeatureCollection<MultiPolygon, ShapeProperties> & { source: string };

/** Marker for the budget script, should the chunk's file name ever change. */
export const WORLD_SHAPES_MARKER = 'world-shapes:natural-earth-110m';

const ANTARCTICA = '010';
/** Shapes Natural Earth draws that have no ISO numeric code; Kosovo's is the common user code. */
const EXTRA_CODES: Record<string, string> = { Kosovo: 'XKX' };

export function loadWorldShapes(): WorldShapes {
  const topology = world as unknown as Topology<{
    countries: GeometryCollection<{ name: string }>;
  }>;
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
      geometry: { type: 'MultiPolygon', coordinates: fixMultiPolygon(polygons) },
    });
  }
  return { type: 'FeatureCollection', features, source: WORLD_SHAPES_MARKER };
}
