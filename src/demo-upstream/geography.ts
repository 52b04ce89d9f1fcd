import { createRequire } from 'node:module';
import { geoArea, geoCentroid } from 'd3-geo';
import type { Feature, MultiPolygon, Polygon } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';

/**
 * The countries of the demo data: every country of Natural Earth's 110m map (world-atlas) that has
 * an ISO alpha-3 code, with a real name and a label point. Loaded with `createRequire` so the
 * compiled program in dist/ finds the JSON in node_modules as well as the sources do.
 */

export interface Place {
  iso: string;
  /** Name as in the data; ISO 3166-style where that reads "X, Republic of" (needs CSV quoting). */
  name: string;
  /** Everyday name for headlines ("South Korea", not "Korea, Republic of"). */
  shortName: string;
  lat: number;
  lng: number;
}

const require = createRequire(import.meta.url);

interface CountriesLib {
  registerLocale(locale: unknown): boolean;
  numericToAlpha3(code: string | number): string | undefined;
  getName(code: string, lang: string, options?: { select: 'official' | 'alias' | 'all' }): string;
}

// ISO 3166 short names with inverted order or apostrophes, so that the CSV export has names that
// need quoting; and shorter everyday names for headlines. [name, shortName]
const NAME_OVERRIDES: Record<string, [string, string]> = {
  KOR: ['Korea, Republic of', 'South Korea'],
  PRK: ["Korea, Democratic People's Republic of", 'North Korea'],
  IRN: ['Iran, Islamic Republic of', 'Iran'],
  CIV: ["Côte d'Ivoire", "Côte d'Ivoire"],
  COD: ['Congo, Democratic Republic of the', 'DR Congo'],
  COG: ['Congo', 'Congo-Brazzaville'],
  TZA: ['Tanzania, United Republic of', 'Tanzania'],
  VEN: ['Venezuela, Bolivarian Republic of', 'Venezuela'],
  BOL: ['Bolivia, Plurinational State of', 'Bolivia'],
  MDA: ['Moldova, Republic of', 'Moldova'],
  SYR: ['Syrian Arab Republic', 'Syria'],
  LAO: ["Lao People's Democratic Republic", 'Laos'],
  RUS: ['Russian Federation', 'Russia'],
  USA: ['United States of America', 'the United States'],
  GBR: ['United Kingdom', 'the United Kingdom'],
  PSE: ['Palestine, State of', 'Palestine'],
  TWN: ['Taiwan', 'Taiwan'],
  MKD: ['North Macedonia', 'North Macedonia'],
  FLK: ['Falkland Islands (Malvinas)', 'the Falkland Islands'],
  CZE: ['Czechia', 'Czechia'],
  TUR: ['Türkiye', 'Türkiye'],
  CPV: ['Cabo Verde', 'Cabo Verde'],
  GMB: ['Gambia', 'the Gambia'],
  NLD: ['Netherlands', 'the Netherlands'],
  PHL: ['Philippines', 'the Philippines'],
  ARE: ['United Arab Emirates', 'the UAE'],
  CAF: ['Central African Republic', 'the Central African Republic'],
  CHN: ['China', 'China'],
  DOM: ['Dominican Republic', 'the Dominican Republic'],
  BHS: ['Bahamas', 'the Bahamas'],
};

type CountryGeometry = Polygon | MultiPolygon;

/** The label point: centroid of the largest polygon, so outlying parts don't pull it away. */
function labelPoint(geometry: CountryGeometry): [number, number] {
  const polygons: Polygon[] =
    geometry.type === 'Polygon'
      ? [geometry]
      : geometry.coordinates.map((coordinates) => ({ type: 'Polygon', coordinates }));
  let largest = polygons[0];
  let largestArea = -1;
  for (const polygon of polygons) {
    const area = geoArea(polygon);
    if (area > largestArea) {
      largest = polygon;
      largestArea = area;
    }
  }
  const [lng, lat] = geoCentroid(largest ?? geometry);
  return [Math.round(lat * 1e4) / 1e4, Math.round(lng * 1e4) / 1e4];
}

function loadPlaces(): Place[] {
  const countries = require('i18n-iso-countries') as CountriesLib;
  countries.registerLocale(require('i18n-iso-countries/langs/en.json'));
  const topology = require('world-atlas/countries-110m.json') as Topology<{
    countries: GeometryCollection<{ name: string }>;
  }>;
  const collection = feature(topology, topology.objects.countries);
  const places: Place[] = [];
  for (const item of collection.features as Array<Feature<CountryGeometry | null>>) {
    const iso = item.id === undefined ? undefined : countries.numericToAlpha3(item.id);
    if (!iso || !item.geometry) continue; // N. Cyprus, Somaliland, Kosovo: no ISO code
    const [name, shortName] = NAME_OVERRIDES[iso] ?? [
      countries.getName(iso, 'en'),
      countries.getName(iso, 'en', { select: 'alias' }),
    ];
    const [lat, lng] = labelPoint(item.geometry);
    places.push({ iso, name, shortName, lat, lng });
  }
  return places.sort((a, b) => a.iso.localeCompare(b.iso));
}

let cached: Place[] | undefined;

/** All mapped countries with an ISO code, sorted by ISO; loaded once per process. */
export function allPlaces(): readonly Place[] {
  cached ??= loadPlaces();
  return cached;
}
