import { queryOptions } from '@tanstack/react-query';
import { countriesResponseSchema } from '../../../../shared/bff-api';
import { fetchBff } from '../../../lib/api-client';
import { COUNTRIES_PATH } from '../../../../shared/page-data';

/** Every country of the latest batch (`/api/countries`): the global summary, map and search. */
export const countrySummaryQueries = {
  all: () => ['countries'] as const,
  list: () =>
    queryOptions({
      queryKey: [...countrySummaryQueries.all(), 'list'] as const,
      queryFn: ({ signal }) => fetchBff(COUNTRIES_PATH, countriesResponseSchema, signal),
      meta: { label: 'the country list' },
    }),
};
