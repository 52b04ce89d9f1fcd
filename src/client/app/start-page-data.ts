import type { QueryClient } from '@tanstack/react-query';
import { isIso3 } from '../../shared/iso';
import { countryQueries } from '../features/country/api/country-queries';
import { hotspotQueries } from '../features/hotspots/api/hotspot-queries';
import { parseFilters } from '../features/hotspots/utils/filters';
import { shapeQueries } from '../features/map/api/shape-queries';
import { countrySummaryQueries } from '../features/overview/api/country-summary-queries';
import { statusQueries } from '../features/status/api/status-queries';
import { loadCountryRoute } from './load-country-route';
import { worldMapQuery } from './load-world-map';

/**
 * Starts what the first page needs as the app starts, before React's first render, instead of
 * from the components' effects after it (which run only once the first render has been
 * committed and painted). The data requests take the answers the BFF's preload hints have
 * already fetched (shared/page-data.ts: the same paths, so one request each), and the map's
 * chunks (Leaflet, the shapes) load while the global index renders rather than after it.
 * The same query options as the components', so they find these entries in the cache.
 */
export function startPageData(
  queryClient: QueryClient,
  location: Pick<Location, 'pathname' | 'search'>,
): void {
  const { pathname } = location;
  if (pathname === '/') {
    const filters = parseFilters(new URLSearchParams(location.search));
    void queryClient.prefetchQuery(statusQueries.current());
    void queryClient.prefetchQuery(countrySummaryQueries.list());
    void queryClient.prefetchQuery(hotspotQueries.list(filters));
    void queryClient.prefetchQuery(worldMapQuery());
    void queryClient.prefetchQuery(shapeQueries.world());
    return;
  }
  const country = /^\/country\/([^/]+)$/.exec(pathname)?.[1];
  // Only the canonical (upper-case) form, as the preload hints: a lower-case link is redirected.
  if (country && isIso3(country) && country === country.toUpperCase()) {
    void loadCountryRoute();
    void queryClient.prefetchQuery(statusQueries.current());
    void queryClient.prefetchQuery(countryQueries.detail(country));
  }
}
