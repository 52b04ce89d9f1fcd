import { queryOptions } from '@tanstack/react-query';
import {
  countryHistoryResponseSchema,
  globalHistoryResponseSchema,
} from '../../../../shared/history-api';
import { fetchBff } from '../../../lib/api-client';

/**
 * The recorded history, whole: one point per batch (two a day, so even two years are a few
 * hundred kilobytes at most). The 7 d / 30 d / 90 d views slice it in the browser, so switching
 * range asks nothing and every range shares one cache entry.
 */
export const historyQueries = {
  all: () => ['history'] as const,
  global: () =>
    queryOptions({
      queryKey: [...historyQueries.all(), 'global'] as const,
      queryFn: ({ signal }) => fetchBff('/api/history/global', globalHistoryResponseSchema, signal),
      meta: { label: 'the history of the global index' },
    }),
  /** Callers pass a validated, upper-cased code (see shared/iso). */
  country: (iso: string) =>
    queryOptions({
      queryKey: [...historyQueries.all(), 'country', iso] as const,
      queryFn: ({ signal }) =>
        fetchBff(
          `/api/history/country/${encodeURIComponent(iso)}`,
          countryHistoryResponseSchema,
          signal,
        ),
      meta: { label: `the history of ${iso}` },
    }),
};
