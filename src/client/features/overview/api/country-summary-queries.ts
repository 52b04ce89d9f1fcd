import { queryOptions } from '@tanstack/react-query';
import { countriesResponseSchema } from '../../../../shared/bff-api';
import { fetchBff } from '../../../lib/api-client';

/** Every country of the latest batch (`/api/countries`): the global summary, map and search. */
export const countrySummaryQueries = {
  all: () => ['countries'] as const,
  list: () =>
    queryOptions({
      queryKey: [...countrySummaryQueries.all(), 'list'] as const,
      queryFn: ({ signal }) => fetchBff('/api/countries', countriesResponseSchema, signal),
      meta: { label: 'the country list' },
    }),
};
