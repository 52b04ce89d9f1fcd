import type { QueryClient } from '@tanstack/react-query';
import { isIso3 } from '../../shared/iso';
import { shapeQueries } from '../features/map/api/shape-queries';
import { loadCountryRoute } from './load-country-route';
import { worldMapQuery } from './load-world-map';

/**
 * Starts loading the first page's lazy chunks as the app starts, before React's first render,
 * instead of from the components after it: on the overview the map (Leaflet) and the shapes,
 * which are then ready soon after the global index instead of being asked for once it has been
 * committed and painted. Same query options as the overview's, so it finds them in the cache.
 *
 * Data is left to the components: the BFF's preload hints already fetch it with the HTML. A
 * prefetched query that failed before the page mounted would be fetched again on mount (an
 * error without data is retried), a second request for every fast failure (a 404, a 503 with
 * Retry-After).
 */
export function startPageChunks(
  queryClient: QueryClient,
  location: Pick<Location, 'pathname'>,
): void {
  const { pathname } = location;
  if (pathname === '/') {
    void queryClient.prefetchQuery(worldMapQuery());
    void queryClient.prefetchQuery(shapeQueries.world());
    return;
  }
  const country = /^\/country\/([^/]+)$/.exec(pathname)?.[1];
  if (country && isIso3(country)) {
    // The route's lazy() takes the same module; a failed load is reported by the route.
    loadCountryRoute().catch(() => undefined);
  }
}
