import { queryOptions } from '@tanstack/react-query';
import { t } from '../../../lib/i18n';

/**
 * The country shapes, loaded once from their own chunk. Kept in the query cache like any other
 * data so loading and failure show through the same states; they never go stale.
 */
export const shapeQueries = {
  world: () =>
    queryOptions({
      queryKey: ['shapes', 'world-110m'] as const,
      queryFn: async () => (await import('../utils/world-shapes')).loadWorldShapes(),
      staleTime: Number.POSITIVE_INFINITY,
      gcTime: Number.POSITIVE_INFINITY,
      meta: { label: t('queries.shapes') },
    }),
};
