import { queryOptions } from '@tanstack/react-query';
import { SITES_MAX, SITES_PAGE_MAX, sitesResponseSchema } from '../../shared/sites-api';
import { fetchBff } from './api-client';
import { siteFilterQuery, type SiteFilters } from './site-filters';
import { t } from './i18n';

/*
 * Our sites' list, read by the map layer, the country page, /exposure and the site pages: one
 * definition per URL, as lib/bff-queries.ts, in a module of its own so its schemas stay out of
 * the overview's first JavaScript (only lazily loaded chunks import it).
 */

/** Pages asked at most: every site there may be, and one more in case of writes between pages. */
const MAX_PAGES = Math.ceil(SITES_MAX / SITES_PAGE_MAX) + 1;

export const siteListQueries = {
  /** Every query about our sites starts with this key: an import or an edit refreshes them all. */
  all: () => ['sites'] as const,
  /**
   * `/api/sites?tier=&country=&kind=&tag=`: every site the filters keep, with its country's
   * current numbers. The BFF answers a page at a time (at most 2,000 sites); the pages are
   * followed by cursor and joined, so a reader sees one list as before.
   */
  list: (filters: SiteFilters) => {
    const query = siteFilterQuery(filters);
    return queryOptions({
      queryKey: ['sites', 'list', query] as const,
      queryFn: async ({ signal }) => {
        const base = `/api/sites${query}${query === '' ? '?' : '&'}limit=${SITES_PAGE_MAX}`;
        const first = await fetchBff(base, sitesResponseSchema, signal);
        const sites = [...first.data.sites];
        let cursor = first.data.next_cursor;
        for (let page = 1; cursor !== null && page < MAX_PAGES; page++) {
          const next = await fetchBff(`${base}&cursor=${cursor}`, sitesResponseSchema, signal);
          sites.push(...next.data.sites);
          cursor = next.data.next_cursor;
        }
        return { ...first, data: { ...first.data, sites, next_cursor: null } };
      },
      meta: { label: t('queries.sites') },
    });
  },
};
