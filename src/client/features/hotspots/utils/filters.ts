/**
 * The hotspot view lives in the URL (`?tier=crit,high&limit=50&q=sud&sort=risk&dir=desc`), so a
 * copied link reproduces it. Parsing is forgiving: a hand-edited bad value falls back to the
 * default instead of breaking the page.
 */
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 50;

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

/**
 * Tier labels as the API takes them: lower-case letters, digits, `_` and `-`. A hand-typed
 * `CRIT` is read as `crit` (the BFF refuses upper case); anything else is dropped.
 */
const TIER_ITEM = /^[a-z0-9_-]{1,32}$/;

export function parseTiers(raw: string | null): string[] {
  if (!raw) return [];
  const items = raw
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter((item) => TIER_ITEM.test(item));
  return [...new Set(items)].sort();
}

export function clampLimit(value: number): number {
  if (!Number.isFinite(value)) return DEFAULT_LIMIT;
  return Math.min(MAX_LIMIT, Math.max(1, Math.round(value)));
}

export function parseLimit(raw: string | null): number {
  if (raw === null || raw.trim() === '') return DEFAULT_LIMIT;
  return clampLimit(Number(raw));
}

function isSortKey(value: string | null): value is SortKey {
  return value !== null && (SORT_KEYS as readonly string[]).includes(value);
}

export function parseFilters(params: URLSearchParams): HotspotFilters {
  const sort = params.get('sort');
  return {
    tiers: parseTiers(params.get('tier')),
    limit: parseLimit(params.get('limit')),
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
  set('limit', filters.limit === DEFAULT_LIMIT ? null : String(filters.limit));
  set('q', filters.q === '' ? null : filters.q);
  set('sort', filters.sort === 'rank' ? null : filters.sort);
  set('dir', filters.sort === 'rank' && filters.dir === 'asc' ? null : filters.dir);
  return next;
}
