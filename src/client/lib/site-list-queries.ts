import { queryOptions } from '@tanstack/react-query';
import { sitesResponseSchema } from '../../shared/sites-api';
import { fetchBff } from './api-client';
import { siteFilterQuery, type SiteFilters } from './site-filters';

/*
 * Our sites' list, read by the map layer, the country page, /exposure and the site pages: one
 * definition per URL, as lib/bff-queries.ts, in a module of its own so its schemas stay out of
 * the overview's first JavaScript (only lazily loaded chunks import it).
 */
export const siteListQueries = {
  /** Every query about our sites starts with this key: an import or an edit refreshes them all. */
  all: () => ['sites'] as const,
  /** `/api/sites?tier=&country=&kind=&tag=`: our sites with their country's current numbers. */
  list: (filters: SiteFilters) => {
    const query = siteFilterQuery(filters);
    return queryOptions({
      queryKey: ['sites', 'list', query] as const,
      queryFn: ({ signal }) => fetchBff(`/api/sites${query}`, sitesResponseSchema, signal),
      meta: { label: 'our sites' },
    });
  },
};
