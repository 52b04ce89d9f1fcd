import { createRequire } from 'node:module';
import type { Feature, MultiPolygon, Polygon, Position } from 'geojson';
import countryCodes from 'i18n-iso-countries';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';

/** One polygon of a country, with its bounding box for a cheap first test. */
export interface ShapePart {
  iso: string;
  polygon: Polygon;
  /** [west, south, east, north] in degrees. */
  box: [number, number, number, number];
}

/** Shapes Natural Earth draws without an ISO numeric code; Kosovo's is the common user code. */
const EXTRA_CODES: Record<string, string> = { Kosovo: 'XKX' };

function boxOf(rings: Position[][]): ShapePart['box'] {
  let west = Infinity;
  let south = Infinity;
  let east = -Infinity;
  let north = -Infinity;
  for (const ring of rings) {
    for (const [lng = 0, lat = 0] of ring) {
      if (lng < west) west = lng;
      if (lng > east) east = lng;
      if (lat < south) south = lat;
      if (lat > north) north = lat;
    }
  }
  return [west, south, east, north];
}

/**
 * Natural Earth's 1:50m countries (world-atlas, the package the maps draw from at 1:110m): the
 * finer scale keeps small countries a site may sit in (Singapore, Bahrain, Luxembourg's borders)
 * that 1:110m drops. Read with `createRequire`, so the compiled server finds the JSON too.
 * Shapes without an ISO code (N. Cyprus, Somaliland) place nothing.
 */
export function loadCountryShapes(): ShapePart[] {
  const topology = readTopology();
  return partsOf(feature(topology, topology.objects.countries).features);
}

/** Countries turned into parts per turn of the event loop by loadCountryShapesInTurns. */
const COUNTRIES_PER_TURN = 24;

/**
 * The same parts, a few countries per turn of the event loop (`pause` between turns): made at
 * start-up, the ~0.2 s of decoding would otherwise keep every request waiting (issue 32).
 */
export async function loadCountryShapesInTurns(
  pause: () => Promise<unknown>,
): Promise<ShapePart[]> {
  const topology = readTopology();
  const { geometries } = topology.objects.countries;
  const parts: ShapePart[] = [];
  for (let i = 0; i < geometries.length; i += COUNTRIES_PER_TURN) {
    await pause();
    const features = geometries.slice(i, i + COUNTRIES_PER_TURN).flatMap((geometry) => {
      const made = feature(topology, geometry);
      return made.type === 'FeatureCollection' ? made.features : [made];
    });
    parts.push(...partsOf(features));
  }
  return parts;
}

type Countries = Topology<{ countries: GeometryCollection<{ name: string }> }>;

function readTopology(): Countries {
  const require = createRequire(import.meta.url);
  return require('world-atlas/countries-50m.json') as Countries;
}

function partsOf(features: readonly Feature[]): ShapePart[] {
  const parts: ShapePart[] = [];
  for (const item of features as Array<Feature<Polygon | MultiPolygon | null, { name?: string }>>) {
    const id = item.id === undefined ? '' : String(item.id);
    const name = item.properties?.name ?? '';
    const iso = (id && countryCodes.numericToAlpha3(id)) || EXTRA_CODES[name] || null;
    if (!iso || !item.geometry) continue;
    const polygons =
      item.geometry.type === 'Polygon' ? [item.geometry.coordinates] : item.geometry.coordinates;
    for (const coordinates of polygons) {
      parts.push({ iso, polygon: { type: 'Polygon', coordinates }, box: boxOf(coordinates) });
    }
  }
  return parts;
}
