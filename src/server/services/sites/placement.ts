import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Position } from 'geojson';
import {
  NEARBY_MAX_KM,
  PLACE_BY_DISTANCE_KM,
  type NearbyCountry,
  type PlacedBy,
} from '../../../shared/sites-api.js';
import { loadCountryShapes, loadCountryShapesInTurns, type ShapePart } from './country-shapes.js';

const KM_PER_DEGREE_LAT = 110.574;
const KM_PER_DEGREE_LNG = 111.32;

export type Placement =
  | { ok: true; iso: string; placedBy: PlacedBy; nearby: NearbyCountry[] }
  | { ok: false; reason: string };

/** Longitude difference folded into [-180, 180), so a shape across 180° is near, not far. */
function lngDelta(lng: number, from: number): number {
  return ((((lng - from + 180) % 360) + 360) % 360) - 180;
}

/** A run of one ring's vertices and their box: a run whose box is far is skipped whole. */
export interface EdgeRun {
  ring: Position[];
  start: number;
  end: number;
  box: ShapePart['box'];
}

const RUN_LENGTH = 32;

/** The part's rings cut into runs of 32 edges with their boxes (built once per shape). */
export function edgeRuns(part: ShapePart): EdgeRun[] {
  const runs: EdgeRun[] = [];
  for (const ring of part.polygon.coordinates) {
    for (let start = 0; start < ring.length - 1; start += RUN_LENGTH) {
      const end = Math.min(ring.length - 1, start + RUN_LENGTH);
      let west = Infinity;
      let south = Infinity;
      let east = -Infinity;
      let north = -Infinity;
      for (let i = start; i <= end; i += 1) {
        const [lng = 0, lat = 0] = ring[i] ?? [];
        west = Math.min(west, lng);
        east = Math.max(east, lng);
        south = Math.min(south, lat);
        north = Math.max(north, lat);
      }
      runs.push({ ring, start, end, box: [west, south, east, north] });
    }
  }
  return runs;
}

/**
 * Distance in km from the point to the nearest edge of the runs, on a flat projection centred on
 * the point (equirectangular): within the 300 km kept here it errs by well under 1 %, and it is
 * orders of magnitude faster than turf's geodesic distance (16 ms a polygon of 1:50m shapes,
 * which would make a 20,000-site import take minutes). A run whose box is farther than the best
 * edge so far (or than `limitKm`) is not looked into.
 */
export function edgeKm(lat: number, lng: number, runs: EdgeRun[], limitKm: number): number {
  const kx = KM_PER_DEGREE_LNG * Math.cos((lat * Math.PI) / 180);
  const limit = limitKm * limitKm;
  // First the lower bound of every run; then the runs nearest first, so the best edge is found
  // early and most runs are never looked into.
  const near: Array<{ low: number; run: EdgeRun }> = [];
  for (const run of runs) {
    const [west, south, east, north] = run.box;
    const dy = lat < south ? south - lat : lat > north ? lat - north : 0;
    const fromWest = lngDelta(lng, west);
    const width = east - west;
    const inLng = width >= 180 || (fromWest >= 0 && fromWest <= width);
    const dxDeg = inLng ? 0 : Math.min(Math.abs(fromWest), Math.abs(fromWest - width));
    const low = (dy * KM_PER_DEGREE_LAT) ** 2 + (dxDeg * kx) ** 2;
    if (low < limit) near.push({ low, run });
  }
  near.sort((a, b) => a.low - b.low);
  let best = limit;
  for (const { low, run } of near) {
    if (low >= best) break;
    best = Math.min(best, runKm2(lat, lng, kx, run));
  }
  return Math.sqrt(best);
}

/** The squared distance (km²) from the point to the run's nearest edge, projected as above. */
function runKm2(lat: number, lng: number, kx: number, run: EdgeRun): number {
  let best = Infinity;
  let px = 0;
  let py = 0;
  for (let i = run.start; i <= run.end; i += 1) {
    const vertex = run.ring[i];
    const x = lngDelta(vertex?.[0] ?? 0, lng) * kx;
    const y = ((vertex?.[1] ?? 0) - lat) * KM_PER_DEGREE_LAT;
    if (i > run.start) {
      const dx = x - px;
      const dy = y - py;
      const length = dx * dx + dy * dy;
      const t = length === 0 ? 0 : Math.max(0, Math.min(1, -(px * dx + py * dy) / length));
      const cx = px + t * dx;
      const cy = py + t * dy;
      const d = cx * cx + cy * cy;
      if (d < best) best = d;
    }
    px = x;
    py = y;
  }
  return best;
}

/**
 * Even-odd crossing test of a ray going east from the point, over the runs whose latitude range
 * holds the point (holes count as outside, as they should). The same answer as turf's
 * booleanPointInPolygon (test/server/site-placement.test.ts compares them), without walking every
 * vertex of Russia for a site in Moscow.
 */
export function insideRuns(lat: number, lng: number, runs: EdgeRun[]): boolean {
  let inside = false;
  for (const run of runs) {
    const [, south, , north] = run.box;
    if (lat < south || lat > north) continue;
    for (let i = run.start; i < run.end; i += 1) {
      const [aLng = 0, aLat = 0] = run.ring[i] ?? [];
      const [bLng = 0, bLat = 0] = run.ring[i + 1] ?? [];
      if (aLat > lat !== bLat > lat) {
        const crossLng = aLng + ((lat - aLat) / (bLat - aLat)) * (bLng - aLng);
        if (crossLng > lng) inside = !inside;
      }
    }
  }
  return inside;
}

/** True when the polygon's box, widened by `km`, holds the point. */
export function nearBox(lat: number, lng: number, box: ShapePart['box'], km: number): boolean {
  const [west, south, east, north] = box;
  const dLat = km / KM_PER_DEGREE_LAT;
  if (lat < south - dLat || lat > north + dLat) return false;
  if (east - west >= 359) return true;
  const cos = Math.cos((Math.min(89, Math.abs(lat)) * Math.PI) / 180);
  const dLng = km / (KM_PER_DEGREE_LNG * cos);
  if (dLng >= 180) return true;
  const fromWest = lngDelta(lng, west);
  const width = east - west;
  return fromWest >= -dLng && fromWest <= width + dLng;
}

/** The grid's cell size in degrees: a site looks only at the parts listed for its cell. */
const CELL_DEG = 2;
const ROWS = 180 / CELL_DEG;
const COLUMNS = 360 / CELL_DEG;

const rowOf = (lat: number): number => Math.min(ROWS - 1, Math.floor((lat + 90) / CELL_DEG));
const columnOf = (lng: number): number =>
  ((Math.floor((lng + 180) / CELL_DEG) % COLUMNS) + COLUMNS) % COLUMNS;

/**
 * For each 2° cell, the parts whose box widened by `km` (nearBox) can hold a point of the cell:
 * built once with the shapes, so placing a site tests a handful of the 1,610 parts, not all of
 * them (that loop was most of a 20,000-site import's time). Conservative by construction: the
 * widening in longitude is taken at the band's most poleward latitude, where it is largest, so
 * no part nearBox would accept is left out; nearBox itself still decides.
 */
export function partGrid<T extends ShapePart>(parts: readonly T[], km: number): T[][] {
  const cells: T[][] = Array.from({ length: ROWS * COLUMNS }, () => []);
  const dLat = km / KM_PER_DEGREE_LAT;
  for (const part of parts) {
    const [west, south, east, north] = part.box;
    const firstRow = rowOf(Math.max(-90, south - dLat));
    const lastRow = rowOf(Math.min(90, north + dLat));
    for (let row = firstRow; row <= lastRow; row += 1) {
      const bandSouth = row * CELL_DEG - 90;
      const poleward = Math.max(Math.abs(bandSouth), Math.abs(bandSouth + CELL_DEG));
      const cos = Math.cos((Math.min(89, poleward) * Math.PI) / 180);
      const dLng = km / (KM_PER_DEGREE_LNG * cos);
      const everywhere = east - west >= 359 || 2 * dLng + (east - west) >= 360 - CELL_DEG;
      const from = everywhere ? 0 : Math.floor((west - dLng + 180) / CELL_DEG);
      const to = everywhere ? COLUMNS - 1 : Math.floor((east + dLng + 180) / CELL_DEG);
      for (let column = from; column <= to; column += 1) {
        cells[row * COLUMNS + (((column % COLUMNS) + COLUMNS) % COLUMNS)]?.push(part);
      }
    }
  }
  return cells;
}

/** Parts given their edge runs per turn of the event loop by SitePlacer.warm. */
const PARTS_PER_TURN = 200;

/**
 * Finds a site's country from the shapes we ship: the one whose shape holds the point; else the
 * nearest within 25 km (a coast, a border: placed "by distance"); else a refusal in words. Also
 * the countries within 300 km of it, nearest first, which the site keeps (computed once here).
 * The shapes are loaded on first use (about 0.3 s) and held by this object.
 */
export class SitePlacer {
  #shapes: Array<ShapePart & { runs: EdgeRun[] }> | null = null;
  #grid: Array<Array<ShapePart & { runs: EdgeRun[] }>> | null = null;

  get shapes(): Array<ShapePart & { runs: EdgeRun[] }> {
    this.#shapes ??= loadCountryShapes().map((part) => ({ ...part, runs: edgeRuns(part) }));
    return this.#shapes;
  }

  /** The parts that can be within 300 km of the point (see partGrid). */
  #near(lat: number, lng: number): Array<ShapePart & { runs: EdgeRun[] }> {
    this.#grid ??= partGrid(this.shapes, NEARBY_MAX_KM);
    return this.#grid[rowOf(lat) * COLUMNS + columnOf(lng)] ?? [];
  }

  /**
   * Loads the shapes and builds the grid now, at start-up before the process says it is ready,
   * rather than inside the first import (issue 29); in small pieces with `pause` between them
   * (a turn of the event loop by default), so that requests answered meanwhile wait for one
   * piece, not the ~0.3 s of the whole (issue 32). A placement asked for before it is done
   * loads the shapes at once, as without it.
   */
  async warm(pause: () => Promise<unknown> = nextTurn): Promise<void> {
    if (this.#grid) return;
    const parts = await loadCountryShapesInTurns(pause);
    const shapes: Array<ShapePart & { runs: EdgeRun[] }> = [];
    for (let i = 0; i < parts.length; i += PARTS_PER_TURN) {
      await pause();
      for (const part of parts.slice(i, i + PARTS_PER_TURN)) {
        shapes.push({ ...part, runs: edgeRuns(part) });
      }
    }
    await pause();
    this.#shapes ??= shapes;
    this.#grid ??= partGrid(this.#shapes, NEARBY_MAX_KM);
  }

  /** Countries (ISO) the shapes know: a given `iso` outside them is taken at its word. */
  place(lat: number, lng: number, givenIso: string | null = null): Placement {
    if (!Number.isFinite(lat) || lat < -90 || lat > 90) {
      return { ok: false, reason: 'lat must be a number from -90 to 90 degrees' };
    }
    if (!Number.isFinite(lng) || lng < -180 || lng > 180) {
      return { ok: false, reason: 'lng must be a number from -180 to 180 degrees' };
    }
    const distances = new Map<string, number>();
    for (const part of this.#near(lat, lng)) {
      if (!nearBox(lat, lng, part.box, NEARBY_MAX_KM)) continue;
      const inside = nearBox(lat, lng, part.box, 0) && insideRuns(lat, lng, part.runs);
      const km = inside ? 0 : edgeKm(lat, lng, part.runs, NEARBY_MAX_KM);
      if (km >= NEARBY_MAX_KM) continue;
      const before = distances.get(part.iso);
      if (before === undefined || km < before) distances.set(part.iso, km);
    }
    const nearby = [...distances]
      .map(([iso, km]) => ({ iso, km: Math.round(km * 10) / 10 }))
      .sort((a, b) => a.km - b.km || a.iso.localeCompare(b.iso));
    if (givenIso !== null) {
      // The organisation's own word wins; its country is at 0 km, whatever the shapes say.
      const rest = nearby.filter((n) => n.iso !== givenIso);
      return {
        ok: true,
        iso: givenIso,
        placedBy: 'given',
        nearby: [{ iso: givenIso, km: 0 }, ...rest],
      };
    }
    const nearest = nearby[0];
    if (nearest && nearest.km === 0)
      return { ok: true, iso: nearest.iso, placedBy: 'inside', nearby };
    if (nearest && nearest.km <= PLACE_BY_DISTANCE_KM) {
      const own = { iso: nearest.iso, km: 0 };
      return {
        ok: true,
        iso: nearest.iso,
        placedBy: 'distance',
        nearby: [own, ...nearby.slice(1)],
      };
    }
    return {
      ok: false,
      reason: nearest
        ? `the point is ${Math.round(nearest.km)} km from the nearest country (${nearest.iso}); give its country in iso, or check lat and lng`
        : `the point is more than ${NEARBY_MAX_KM} km from any country; give its country in iso, or check lat and lng`,
    };
  }
}
