import {
  SITE_KINDS,
  SITES_PAGE_DEFAULT,
  SITES_PAGE_MAX,
  type SiteKind,
} from '../../../shared/sites-api.js';
import type { CountryRow } from '../../store/batches.js';
import type { SiteRow } from '../../store/sites.js';
import { BadRequest } from '../../refusals.js';

/** A caller's value in an error: short, quoted, control characters shown as `?`. */
function shown(value: string): string {
  const clean = value.replace(/\p{Cc}/gu, '?');
  return JSON.stringify(clean.length > 40 ? `${clean.slice(0, 40)}…` : clean);
}

/** `?tier=crit,high&country=POL,UKR&kind=plant,office&tag=emea`, each optional. */
export interface SiteFilters {
  tiers: string[];
  countries: string[];
  kinds: SiteKind[];
  tag: string | null;
}

const MAX_ITEMS = 300;

function items(name: string, raw: string | undefined): string[] {
  if (raw === undefined) return [];
  const list = raw.split(',').map((item) => item.trim());
  if (list.length > MAX_ITEMS) throw new BadRequest(`${name} may list at most ${MAX_ITEMS} items`);
  if (list.some((item) => item === '')) {
    throw new BadRequest(`${name} has an empty item; write e.g. ${name}=a,b`);
  }
  return [...new Set(list)];
}

export function parseSiteFilters(query: {
  tier?: string;
  country?: string;
  kind?: string;
  tag?: string;
}): SiteFilters {
  const tiers = items('tier', query.tier).map((tier) => {
    if (!/^[a-z0-9_-]{1,32}$/.test(tier)) {
      throw new BadRequest(`tier item ${shown(tier)} is not a tier label such as crit or high`);
    }
    return tier;
  });
  const countries = items('country', query.country).map((code) => {
    if (!/^[A-Za-z]{3}$/.test(code)) {
      throw new BadRequest(`country item ${shown(code)} is not an ISO alpha-3 code such as POL`);
    }
    return code.toUpperCase();
  });
  const kinds = items('kind', query.kind).map((kind) => {
    if (!(SITE_KINDS as readonly string[]).includes(kind)) {
      throw new BadRequest(`kind item ${shown(kind)} is not one of ${SITE_KINDS.join(', ')}`);
    }
    return kind as SiteKind;
  });
  const tag = query.tag?.trim() ?? null;
  if (tag !== null && (tag === '' || tag.length > 40)) {
    throw new BadRequest('tag must be one tag of 1 to 40 characters');
  }
  return { tiers, countries, kinds, tag };
}

/** The sites the filters keep; a tier filter reads the site's country's tier in `latest`. */
export function filterSites(
  rows: readonly SiteRow[],
  filters: SiteFilters,
  latest: ReadonlyMap<string, CountryRow> | undefined,
): SiteRow[] {
  const { tiers, countries, kinds, tag } = filters;
  if (tiers.length + countries.length + kinds.length === 0 && tag === null) return [...rows];
  return rows.filter(
    (row) =>
      (countries.length === 0 || countries.includes(row.iso)) &&
      (kinds.length === 0 || kinds.includes(row.kind)) &&
      (tag === null || row.tags.includes(tag)) &&
      (tiers.length === 0 || tiers.includes(latest?.get(row.iso)?.tier ?? 'unknown')),
  );
}

/** `?limit=500&cursor=<next_cursor>`: a page of sites by id. */
export interface SitePage {
  limit: number;
  /** Sites with an id above this; 0 for the first page. */
  after: number;
}

export function parseSitePage(query: { limit?: string; cursor?: string }): SitePage {
  let limit = SITES_PAGE_DEFAULT;
  if (query.limit !== undefined) {
    limit = /^\d{1,6}$/.test(query.limit) ? Number(query.limit) : NaN;
    if (!(limit >= 1 && limit <= SITES_PAGE_MAX)) {
      throw new BadRequest(
        `limit must be a whole number from 1 to ${SITES_PAGE_MAX} (sites a page; ${SITES_PAGE_DEFAULT} when left out), not ${shown(query.limit)}`,
      );
    }
  }
  let after = 0;
  if (query.cursor !== undefined) {
    if (!/^[1-9]\d{0,14}$/.test(query.cursor)) {
      throw new BadRequest(
        `cursor must be the next_cursor of the page before (a positive whole number), not ${shown(query.cursor)}`,
      );
    }
    after = Number(query.cursor);
  }
  return { limit, after };
}

/** One page of `rows` (sorted by id): the sites after the cursor, and the cursor after them. */
export function pageOf<T extends { id: number }>(
  rows: readonly T[],
  page: SitePage,
): { items: T[]; next: string | null } {
  // Binary search: the first row with an id above the cursor.
  let low = 0;
  let high = rows.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((rows[mid]?.id ?? 0) <= page.after) low = mid + 1;
    else high = mid;
  }
  const items = rows.slice(low, low + page.limit);
  const last = items.at(-1);
  const more = low + page.limit < rows.length;
  return { items, next: more && last ? String(last.id) : null };
}
