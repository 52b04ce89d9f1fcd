import { SITE_KINDS, type SiteKind } from '../../shared/sites-api';

/**
 * The filters of our sites (`?tier=crit,high&country=POL&kind=plant&tag=emea`), as the BFF's
 * `/api/sites`, `/api/exposure` and the sites spreadsheet take them. Read from a page's URL
 * tolerantly: an item the BFF would refuse is dropped, so a hand-edited link still opens a page.
 */
export interface SiteFilters {
  tiers: readonly string[];
  countries: readonly string[];
  kinds: readonly SiteKind[];
  tag: string | null;
}

export const NO_SITE_FILTERS: SiteFilters = { tiers: [], countries: [], kinds: [], tag: null };

/** The BFF's own limit on a tag (site-filters.ts on the server: 1 to 40 characters). */
const TAG_MAX = 40;
const TIER_ITEM = /^[a-z0-9_-]{1,32}$/;
const ISO_ITEM = /^[A-Za-z]{3}$/;

function listOf(raw: string | null): string[] {
  return (raw ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

const unique = <T>(items: readonly T[]): T[] => [...new Set(items)].sort();

export function parseSiteFilters(params: URLSearchParams): SiteFilters {
  const tag = params.get('tag')?.trim() ?? '';
  return {
    tiers: unique(listOf(params.get('tier')).filter((tier) => TIER_ITEM.test(tier))),
    countries: unique(
      listOf(params.get('country'))
        .filter((code) => ISO_ITEM.test(code))
        .map((code) => code.toUpperCase()),
    ),
    kinds: unique(
      listOf(params.get('kind')).filter((kind): kind is SiteKind =>
        (SITE_KINDS as readonly string[]).includes(kind),
      ),
    ),
    tag: tag === '' || tag.length > TAG_MAX ? null : tag,
  };
}

/**
 * The filters as query parameters in one order (lists sorted), so equal filters make equal
 * URLs and query keys. Empty filters are left out.
 */
export function siteFilterParams(filters: SiteFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.tiers.length > 0) params.set('tier', unique(filters.tiers).join(','));
  if (filters.countries.length > 0) params.set('country', unique(filters.countries).join(','));
  if (filters.kinds.length > 0) params.set('kind', unique(filters.kinds).join(','));
  if (filters.tag !== null) params.set('tag', filters.tag);
  return params;
}

/** `?tier=…` or '' when there is no filter. */
export function siteFilterQuery(filters: SiteFilters): string {
  const text = siteFilterParams(filters).toString();
  return text === '' ? '' : `?${text}`;
}
