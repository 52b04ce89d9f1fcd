/**
 * Which BFF requests a page makes first, derived from its URL alone. The SPA builds its request
 * paths with these functions and the BFF announces the same paths as preload hints on the page
 * itself, so the browser starts the data requests with the HTML instead of after the JavaScript,
 * and the SPA's fetches reuse them (a preload is only reused when the URL matches exactly).
 */

import { HOTSPOT_DEFAULT_LIMIT, HOTSPOT_MAX_LIMIT } from './hotspot-limits.js';

export const DEFAULT_HOTSPOT_LIMIT = HOTSPOT_DEFAULT_LIMIT;
export const MAX_HOTSPOT_LIMIT = HOTSPOT_MAX_LIMIT;

/**
 * Tier labels as the API takes them: lower-case letters, digits, `_` and `-`. A hand-typed
 * `CRIT` is read as `crit` (the BFF refuses upper case); anything else is dropped.
 */
const TIER_ITEM = /^[a-z0-9_-]{1,32}$/;

/** `?tier=` read forgivingly: sorted, de-duplicated, lower-cased; empty means all tiers. */
export function parseTierList(raw: string | null): string[] {
  if (!raw) return [];
  const items = raw
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter((item) => TIER_ITEM.test(item));
  return [...new Set(items)].sort();
}

export function clampHotspotLimit(value: number): number {
  if (!Number.isFinite(value)) return DEFAULT_HOTSPOT_LIMIT;
  return Math.min(MAX_HOTSPOT_LIMIT, Math.max(1, Math.round(value)));
}

/** `?limit=` read forgivingly: missing or unreadable is the default, out of range is clamped. */
export function parseHotspotLimit(raw: string | null): number {
  if (raw === null || raw.trim() === '') return DEFAULT_HOTSPOT_LIMIT;
  return clampHotspotLimit(Number(raw));
}

/** The hotspot list's request path, exactly as the SPA sends it. */
export function hotspotsPath(tiers: readonly string[], limit: number): string {
  const params = new URLSearchParams({ limit: String(limit) });
  const sorted = [...tiers].sort();
  if (sorted.length > 0) params.set('tier', sorted.join(','));
  return `/api/v1/hotspots?${params.toString()}`;
}

export const STATUS_PATH = '/api/status';
/** Who is signed in: the header's audit link and user menu (nothing when nobody signs in). */
export const ME_PATH = '/api/me';
export const COUNTRIES_PATH = '/api/countries';

export function countryPath(iso: string): string {
  return `/api/v1/country/${encodeURIComponent(iso)}`;
}

const COUNTRY_PAGE = /^\/country\/([A-Za-z]{3})$/;

/**
 * The country code of a country page's URL, and whether it is the canonical (upper-case) form:
 * a lower-case link is redirected before it fetches anything. Null for other URLs.
 */
export function countryPageCode(pathname: string): { iso: string; canonical: boolean } | null {
  const iso = COUNTRY_PAGE.exec(pathname)?.[1];
  return iso === undefined ? null : { iso, canonical: iso === iso.toUpperCase() };
}

/**
 * `?as_of=` of a page's URL: the recorded batch the page shows (issue 22), as the BFF takes it.
 * Null when absent or not a time (a hand-edited bad value shows the latest data instead of
 * breaking the page; the BFF names the problem when it is a time it has no batch for).
 */
export function parseAsOf(raw: string | null): string | null {
  if (raw === null || raw.trim() === '' || raw.length > 40) return null;
  return Number.isFinite(Date.parse(raw)) ? raw.trim() : null;
}

/** A data path asked as of a recorded batch, or as it is when `asOf` is null. */
export function withAsOf(path: string, asOf: string | null): string {
  if (asOf === null) return path;
  return `${path}${path.includes('?') ? '&' : '?'}as_of=${encodeURIComponent(asOf)}`;
}

/** The data requests a page starts with (the status alone for pages that load on demand). */
export function pageDataPaths(pathname: string, search: URLSearchParams): string[] {
  const asOf = parseAsOf(search.get('as_of'));
  if (pathname === '/') {
    const tiers = parseTierList(search.get('tier'));
    const limit = parseHotspotLimit(search.get('limit'));
    return [
      STATUS_PATH,
      ME_PATH,
      withAsOf(COUNTRIES_PATH, asOf),
      withAsOf(hotspotsPath(tiers, limit), asOf),
    ];
  }
  const country = countryPageCode(pathname);
  // Every page draws the status (banner, header links) and who is signed in (the header's audit
  // link and user menu, a line of their own on a phone) above itself: known at its first render,
  // they move nothing when they arrive.
  return country?.canonical
    ? [STATUS_PATH, ME_PATH, withAsOf(countryPath(country.iso), asOf)]
    : [STATUS_PATH, ME_PATH];
}
