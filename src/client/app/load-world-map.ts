import { queryOptions } from '@tanstack/react-query';
import { t } from '../lib/i18n';

/**
 * The world map (Leaflet with it) is its own chunk, loaded through the query cache like the
 * shapes (features/map/api/shape-queries.ts) rather than with React.lazy: a lazy component
 * inside Suspense is revealed by a retry render, which React holds back until 300 ms after any
 * Suspense boundary on the page last switched (its fallback throttle), so the map came up to
 * 300 ms after its chunk and data were ready. As a query, its arrival is an ordinary update.
 * start-page.ts starts it before the first render, the overview reads it.
 */
export const worldMapQuery = () =>
  queryOptions({
    queryKey: ['chunk', 'world-map'] as const,
    queryFn: async () => (await import('../features/map/components/world-map')).WorldMap,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    meta: { label: t('queries.map') },
  });
