/**
 * The hotspot view lives in the URL (`?tier=crit,high&limit=50&q=sud&sort=risk&dir=desc`), so a
 * copied link reproduces it. Parsing is forgiving: a hand-edited bad value falls back to the
 * default instead of breaking the page.
 */
import {
  DEFAULT_HOTSPOT_LIMIT,
  parseHotspotLimit,
  parseTierList,
} from '../../../../shared/page-data';

// The request half of the view (tiers, limit) is read the same way by the BFF's preload hints.
export {
  DEFAULT_HOTSPOT_LIMIT as DEFAULT_LIMIT,
  MAX_HOTSPOT_LIMIT as MAX_LIMIT,
  parseTierList as parseTiers,
  clampHotspotLimit as clampLimit,
  parseHotspotLimit as parseLimit,
} from '../../../../shared/page-data';

export const SORT_KEYS = [
  'rank',
  'name',
  'risk',
  'tier',
  'static',
  'active',
  'delta_active',
  'delta_headline',
  'confidence',
  'profile',
  'source_count',
] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export type SortDir = 'asc' | 'desc';

export interface HotspotFilters {
  /** Selected tier labels, sorted and de-duplicated; empty means all tiers. */
  tiers: string[];
  limit: number;
  q: string;
  sort: SortKey;
  dir: SortDir;
}

function isSortKey(value: string | null): value is SortKey {
  return value !== null && (SORT_KEYS as readonly string[]).includes(value);
}

export function parseFilters(params: URLSearchParams): HotspotFilters {
  const sort = params.get('sort');
  return {
    tiers: parseTierList(params.get('tier')),
    limit: parseHotspotLimit(params.get('limit')),
    q: params.get('q') ?? '',
    sort: isSortKey(sort) ? sort : 'rank',
    dir: params.get('dir') === 'desc' ? 'desc' : 'asc',
  };
}

/** Writes filters back, leaving defaults out so URLs stay short; other params are kept. */
export function applyFilters(params: URLSearchParams, filters: HotspotFilters): URLSearchParams {
  const next = new URLSearchParams(params);
  const set = (key: string, value: string | null) =>
    value === null ? next.delete(key) : next.set(key, value);
  set('tier', filters.tiers.length > 0 ? filters.tiers.join(',') : null);
  set('limit', filters.limit === DEFAULT_HOTSPOT_LIMIT ? null : String(filters.limit));
  set('q', filters.q === '' ? null : filters.q);
  set('sort', filters.sort === 'rank' ? null : filters.sort);
  set('dir', filters.sort === 'rank' && filters.dir === 'asc' ? null : filters.dir);
  return next;
}
