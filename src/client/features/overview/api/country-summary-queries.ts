import { queryOptions } from '@tanstack/react-query';
import { countriesResponseSchema, countrySummarySchema } from '../../../../shared/bff-api';
import { fetchBff } from '../../../lib/api-client';
import { COUNTRIES_PATH } from '../../../../shared/page-data';

/**
 * `/api/countries` as the SPA reads it: every field of each row but its ten categories, which
 * no view takes from this list (the country page has its own). They stay in the answer, kept
 * but not checked: checking them was three quarters of the cost of reading it, about 20 ms of
 * main thread before the overview's first render in Chromium (a first, cold parse; section 3
 * of docs/benchmarks.md).
 */
const countryListSchema = countriesResponseSchema.extend({
  countries: countrySummarySchema.omit({ categories: true }).array(),
});

/** Every country of the latest batch (`/api/countries`): the global summary, map and search. */
export const countrySummaryQueries = {
  all: () => ['countries'] as const,
  list: () =>
    queryOptions({
      queryKey: [...countrySummaryQueries.all(), 'list'] as const,
      queryFn: ({ signal }) => fetchBff(COUNTRIES_PATH, countryListSchema, signal),
      meta: { label: 'the country list' },
    }),
};
