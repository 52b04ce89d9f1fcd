import { queryOptions } from '@tanstack/react-query';
import { t } from '../../../lib/i18n';

/**
 * The sites layer (supercluster with it) is its own chunk, asked for only when the layer is
 * switched on: the overview's first JavaScript and the map's chunk stay as they were. Loaded
 * through the query cache like the map itself (see app/load-world-map.ts for why not React.lazy).
 */
export const sitesLayerChunk = () =>
  queryOptions({
    queryKey: ['chunk', 'sites-layer'] as const,
    queryFn: async () => (await import('../components/sites-layer')).SitesLayer,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    meta: { label: t('queries.sitesLayer') },
  });
