import { LRUCache } from 'lru-cache';
import { HOTSPOT_DEFAULT_LIMIT, HOTSPOT_MAX_LIMIT } from '../../shared/hotspot-limits.js';
import { ISO3_PATTERN, normaliseIso3 } from '../../shared/iso.js';
import type { HotspotsQuery } from '../services/risk-data.js';
import type { ExportFormat } from '../services/resources.js';

/** A request the BFF refuses before spending anything: 400 with this message. */
export class BadRequest extends Error {
  override name = 'BadRequest';
}

const MAX_LIMIT = HOTSPOT_MAX_LIMIT;
const DEFAULT_LIMIT = HOTSPOT_DEFAULT_LIMIT;
const TIER_LABEL = /^[a-z0-9_-]{1,32}$/;
const MAX_TIER_ITEMS = 16;
const INCLUDE_ITEMS = ['categories', 'events'] as const;

/** Quotes a caller's value for an error message: short, and free of control characters. */
function shown(value: string): string {
  const clean = [...value].map((c) => (c < ' ' || c === '\u007f' ? '?' : c)).join('');
  return JSON.stringify(clean.length > 40 ? `${clean.slice(0, 40)}…` : clean);
}

/**
 * Reads the query string. Unknown parameters are refused rather than ignored: a typo such as
 * `tiers=crit` would otherwise silently return unfiltered data to a script or spreadsheet.
 * A parameter given twice is refused too (which one would win is a guess).
 */
export function readQuery(rawUrl: string, allowed: readonly string[]): Map<string, string> {
  const at = rawUrl.indexOf('?');
  const params = new URLSearchParams(at < 0 ? '' : rawUrl.slice(at + 1));
  const values = new Map<string, string>();
  for (const [name, value] of params) {
    if (!allowed.includes(name)) {
      const list = allowed.length > 0 ? `allowed: ${allowed.join(', ')}` : 'it takes none';
      throw new BadRequest(`Unknown query parameter ${shown(name)} (${list})`);
    }
    if (values.has(name)) throw new BadRequest(`Query parameter ${name} was given more than once`);
    values.set(name, value);
  }
  return values;
}

export function parseLimit(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_LIMIT;
  if (!/^[0-9]{1,3}$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_LIMIT) {
    throw new BadRequest(`limit must be a whole number from 1 to ${MAX_LIMIT} (got ${shown(raw)})`);
  }
  return Number(raw);
}

/** Tier labels, sorted and de-duplicated so equivalent filters share one cache entry. */
export function parseTiers(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  const items = raw.split(',');
  if (items.length > MAX_TIER_ITEMS) {
    throw new BadRequest(`tier may list at most ${MAX_TIER_ITEMS} labels`);
  }
  items.forEach((item, i) => {
    if (item === '') {
      throw new BadRequest(`tier has an empty item (position ${i + 1}); write e.g. tier=crit,high`);
    }
    if (!TIER_LABEL.test(item)) {
      throw new BadRequest(
        `tier item ${shown(item)} is not a tier label (lower-case letters, digits, _ or -, at most 32)`,
      );
    }
  });
  return [...new Set(items)].sort();
}

export function parseInclude(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  const items = raw.split(',');
  for (const item of items) {
    if (!(INCLUDE_ITEMS as readonly string[]).includes(item)) {
      throw new BadRequest(
        `include may only list ${INCLUDE_ITEMS.join(' and ')} (got ${shown(item)})`,
      );
    }
  }
  return [...new Set(items)].sort();
}

/** Parsed queries by their raw text: the same dashboard URLs arrive over and over. */
export type HotspotQueryMemo = LRUCache<string, HotspotsQuery | BadRequest>;

/** One per app (the hotspot routes own it), bounded: a few hundred distinct URLs is plenty. */
export function hotspotQueryMemo(): HotspotQueryMemo {
  return new LRUCache<string, HotspotsQuery | BadRequest>({ max: 500 });
}

export function parseHotspotsQuery(rawUrl: string, memo: HotspotQueryMemo): HotspotsQuery {
  const at = rawUrl.indexOf('?');
  const text = at < 0 ? '' : rawUrl.slice(at + 1);
  let parsed = memo.get(text);
  if (!parsed) {
    try {
      const query = readQuery(rawUrl, ['limit', 'tier', 'include']);
      parsed = {
        limit: parseLimit(query.get('limit')),
        tiers: parseTiers(query.get('tier')),
        include: parseInclude(query.get('include')),
      };
    } catch (error) {
      if (!(error instanceof BadRequest)) throw error;
      parsed = error;
    }
    memo.set(text, parsed);
  }
  if (parsed instanceof BadRequest) throw parsed;
  return parsed;
}

/** Exactly three ASCII letters, upper-cased before it becomes part of a cache key. */
export function parseIso(raw: string): string {
  if (!ISO3_PATTERN.test(raw)) {
    throw new BadRequest(
      `iso must be a three-letter ISO 3166-1 alpha-3 country code such as UKR (got ${shown(raw)})`,
    );
  }
  return normaliseIso3(raw);
}

export function parseFormat(rawUrl: string): ExportFormat {
  const format = readQuery(rawUrl, ['format']).get('format') ?? 'csv';
  if (format !== 'csv' && format !== 'json') {
    throw new BadRequest(`format must be csv or json (got ${shown(format)})`);
  }
  return format;
}
