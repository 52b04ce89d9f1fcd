import { queryOptions } from '@tanstack/react-query';
import { countriesResponseSchema, countrySummarySchema } from '../../../../shared/bff-api';
import { fetchBff } from '../../../lib/api-client';
import { asOfKey, pastBatch } from '../../../lib/bff-queries';
import { COUNTRIES_PATH, withAsOf } from '../../../../shared/page-data';

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

/**
 * Every country of the latest batch, or of the batch `asOf` names (`/api/countries`): the global
 * summary, map and search.
 */
export const countrySummaryQueries = {
  all: () => ['countries'] as const,
  list: (asOf: string | null = null) =>
    queryOptions({
      queryKey: [...countrySummaryQueries.all(), 'list', ...asOfKey(asOf)] as const,
      queryFn: ({ signal }) => fetchBff(withAsOf(COUNTRIES_PATH, asOf), countryListSchema, signal),
      ...pastBatch(asOf),
      meta: { label: 'the country list' },
    }),
};
