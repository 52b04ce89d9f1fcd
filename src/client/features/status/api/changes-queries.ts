import { queryOptions } from '@tanstack/react-query';
import { changesResponseSchema } from '../../../../shared/history-api';
import { ApiError, fetchBff } from '../../../lib/api-client';

/**
 * `/api/changes?since=previous` for the "updated to a new batch" notice: how many countries
 * changed tier. The route comes with the history store; a BFF without it answers 404, which is
 * read as "count unknown" (null), not as an error.
 */
export const changesQueries = {
  sincePrevious: (asOf: string) =>
    queryOptions({
      queryKey: ['changes', 'previous', asOf] as const,
      queryFn: async ({ signal }) => {
        try {
          const { data } = await fetchBff(
            '/api/changes?since=previous',
            changesResponseSchema,
            signal,
          );
          // Only a comparison that ends at the announced batch counts for it.
          if (data.to_batch?.as_of !== asOf) return null;
          return { tierChanges: data.countries.filter((c) => c.tier_change !== null).length };
        } catch (error) {
          if (error instanceof ApiError && error.status === 404) return null;
          throw error;
        }
      },
      staleTime: Infinity,
      retry: false,
      meta: { label: 'what changed' },
    }),
};
