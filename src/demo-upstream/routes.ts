import { ISO3_PATTERN } from '../shared/iso.js';
import { KNOWN_TIERS } from '../shared/tiers.js';
import { exportCsv, exportJson } from './export-format.js';
import type { Batch, CountryOut, HotspotOut } from './payload-types.js';

/**
 * The three documented endpoints as plain functions of (batch, parameters) → status and body, so
 * the HTTP layer stays thin. Parameter errors name the parameter and what would be valid.
 */

export interface RouteAnswer {
  status: number;
  body: string;
  contentType: string;
}

type QueryValue = string | string[] | undefined;

export const HOTSPOT_LIMIT_DEFAULT = 20;
export const HOTSPOT_LIMIT_MAX = 50;
export const HOTSPOT_EVENTS_MAX = 5;
const INCLUDE_ITEMS = ['categories', 'events'] as const;
const JSON_TYPE = 'application/json; charset=utf-8';

export function jsonAnswer(status: number, value: unknown): RouteAnswer {
  return { status, body: JSON.stringify(value), contentType: JSON_TYPE };
}

export function errorAnswer(status: number, error: string): RouteAnswer {
  return jsonAnswer(status, { ok: false, error });
}

function shown(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
}

/** A comma-separated list whose items must all come from `allowed`; null = parameter absent. */
function parseList(
  name: string,
  value: QueryValue,
  allowed: readonly string[],
): { items: string[] | null } | { error: string } {
  if (value === undefined) return { items: null };
  if (Array.isArray(value))
    return { error: `${name} must be given once, as a comma-separated list` };
  const items = value.split(',');
  const choices = allowed.join(', ');
  for (const item of items) {
    if (item === '') return { error: `${name} has an empty item; allowed items: ${choices}` };
    if (!allowed.includes(item)) {
      return { error: `${name} has an unknown item ${shown(item)}; allowed items: ${choices}` };
    }
  }
  return { items };
}

function parseLimit(value: QueryValue): { limit: number } | { error: string } {
  if (value === undefined) return { limit: HOTSPOT_LIMIT_DEFAULT };
  if (Array.isArray(value)) return { error: 'limit must be given once' };
  const limit = /^\d{1,4}$/.test(value) ? Number(value) : NaN;
  if (!(limit >= 1 && limit <= HOTSPOT_LIMIT_MAX)) {
    return {
      error: `limit must be a whole number from 1 to ${HOTSPOT_LIMIT_MAX} (got ${shown(value)})`,
    };
  }
  return { limit };
}

type HotspotRow = HotspotOut & Partial<Pick<CountryOut, 'categories' | 'events'>>;

function hotspotRow(country: CountryOut, include: readonly string[]): HotspotRow {
  const { categories, events, ...row } = country;
  return {
    ...row,
    ...(include.includes('categories') ? { categories } : {}),
    ...(include.includes('events') ? { events: events.slice(0, HOTSPOT_EVENTS_MAX) } : {}),
  };
}

export function hotspotsAnswer(batch: Batch, query: Record<string, QueryValue>): RouteAnswer {
  const limit = parseLimit(query.limit);
  if ('error' in limit) return errorAnswer(400, limit.error);
  const tiers = parseList('tier', query.tier, KNOWN_TIERS);
  if ('error' in tiers) return errorAnswer(400, tiers.error);
  const include = parseList('include', query.include, INCLUDE_ITEMS);
  if ('error' in include) return errorAnswer(400, include.error);

  const wanted = tiers.items;
  const rows = batch.countries
    .filter((country) => wanted === null || wanted.includes(country.tier))
    .slice(0, limit.limit)
    .map((country) => hotspotRow(country, include.items ?? []));
  return jsonAnswer(200, {
    ok: true,
    as_of: batch.asOf,
    methodology_version: batch.methodologyVersion,
    global: batch.global,
    count: rows.length,
    hotspots: rows,
  });
}

/** Lower-case codes are accepted and normalised (`ukr` → `UKR`); anything else is 400. */
export function countryAnswer(batch: Batch, iso: string): RouteAnswer {
  if (!ISO3_PATTERN.test(iso)) {
    return errorAnswer(400, `Not a valid ISO 3166-1 alpha-3 code: ${shown(iso)} (3 letters)`);
  }
  const code = iso.toUpperCase();
  const country = batch.byIso.get(code);
  if (!country) {
    return errorAnswer(
      404,
      `Country ${code} is not in the current payload (low baseline or no recent news)`,
    );
  }
  return jsonAnswer(200, { ok: true, as_of: batch.asOf, country });
}

const exportCache = new WeakMap<Batch, { csv?: string; json?: string }>();

export function exportAnswer(
  batch: Batch,
  query: Record<string, QueryValue>,
): RouteAnswer & { format?: 'csv' | 'json' } {
  const format = query.format ?? 'csv';
  if (format !== 'csv' && format !== 'json') {
    const got = Array.isArray(format) ? 'more than one value' : shown(format);
    return errorAnswer(400, `format must be csv or json (got ${got})`);
  }
  const cached = exportCache.get(batch) ?? {};
  exportCache.set(batch, cached);
  if (format === 'csv') {
    cached.csv ??= exportCsv(batch);
    return { status: 200, body: cached.csv, contentType: 'text/csv; charset=utf-8', format };
  }
  cached.json ??= exportJson(batch);
  return { status: 200, body: cached.json, contentType: JSON_TYPE, format };
}
