import { createRequire } from 'node:module';
import { geoNaturalEarth1, geoPath } from 'd3-geo';
import type { Feature, Geometry } from 'geojson';
import countryCodes from 'i18n-iso-countries';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';

export const MAP_WIDTH = 960;
export const MAP_HEIGHT = 500;

/** One country's outline as an SVG path, projected once. */
export interface MapShape {
  iso: string;
  d: string;
}

/**
 * The world at 1:110m (world-atlas, what the SPA's map draws), projected with Natural Earth to
 * SVG paths at one decimal: d3-geo clips at the antimeridian, so Russia and Fiji do not streak.
 * Shapes without an ISO code (N. Cyprus, Somaliland) are drawn grey. Called once per process.
 */
export function projectWorld(): MapShape[] {
  const require = createRequire(import.meta.url);
  const topology = require('world-atlas/countries-110m.json') as Topology<{
    countries: GeometryCollection<{ name: string }>;
  }>;
  const collection = feature(topology, topology.objects.countries);
  const projection = geoNaturalEarth1().fitSize([MAP_WIDTH, MAP_HEIGHT], { type: 'Sphere' });
  const path = geoPath(projection).digits(1);
  const shapes: MapShape[] = [];
  for (const item of collection.features as Array<Feature<Geometry | null>>) {
    const id = item.id === undefined ? '' : String(item.id);
    const d = item.geometry ? path(item.geometry) : null;
    if (!d) continue;
    shapes.push({ iso: (id && countryCodes.numericToAlpha3(id)) || '', d });
  }
  return shapes;
}
