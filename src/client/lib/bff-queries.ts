import { queryOptions } from '@tanstack/react-query';
import { stalenessShape } from '../../shared/bff-api';
import {
  changesResponseSchema,
  countryHistoryResponseSchema,
  globalHistoryResponseSchema,
} from '../../shared/history-api';
import { countryPath } from '../../shared/page-data';
import { countryResponseSchema } from '../../shared/schemas/responses';
import { fetchBff } from './api-client';

/*
 * One query definition per BFF URL that several features read (the country page and the brief,
 * the trend panels, compare, watchlists and the brief, What changed and the new-batch notice):
 * one key, so a URL is fetched once, cached once and refreshed together when a batch arrives.
 * Features take these as they are and shape the data with `select`.
 */

const countryWithStaleness = countryResponseSchema.extend(stalenessShape);

export const bffQueries = {
  /** `/api/v1/country/:iso`. Callers pass a validated, upper-cased code (see shared/iso). */
  country: (iso: string) =>
    queryOptions({
      queryKey: ['country', 'detail', iso] as const,
      queryFn: ({ signal }) => fetchBff(countryPath(iso), countryWithStaleness, signal),
      meta: { label: `the data of ${iso}` },
    }),
  /**
   * The recorded history, whole: one point per batch (two a day, so even two years are a few
   * hundred kilobytes at most). Views slice it in the browser, so switching range asks nothing
   * and every range shares one cache entry.
   */
  historyGlobal: () =>
    queryOptions({
      queryKey: ['history', 'global'] as const,
      queryFn: ({ signal }) => fetchBff('/api/history/global', globalHistoryResponseSchema, signal),
      meta: { label: 'the history of the global index' },
    }),
  /** One country's recorded history, whole (see `historyGlobal`). */
  historyCountry: (iso: string) =>
    queryOptions({
      queryKey: ['history', 'country', iso] as const,
      queryFn: ({ signal }) =>
        fetchBff(
          `/api/history/country/${encodeURIComponent(iso)}`,
          countryHistoryResponseSchema,
          signal,
        ),
      meta: { label: `the history of ${iso}` },
    }),
  /** `/api/changes?since=`: what moved between the latest batch and an earlier one. */
  changes: (since: string) =>
    queryOptions({
      queryKey: ['changes', since] as const,
      queryFn: ({ signal }) =>
        fetchBff(`/api/changes?since=${encodeURIComponent(since)}`, changesResponseSchema, signal),
      meta: { label: 'what changed' },
    }),
};
