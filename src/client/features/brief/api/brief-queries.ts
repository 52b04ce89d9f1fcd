import { queryOptions } from '@tanstack/react-query';
import { alertListResponseSchema } from '../../../../shared/alerts-api';
import {
  changesResponseSchema,
  countryHistoryResponseSchema,
  globalHistoryResponseSchema,
} from '../../../../shared/history-api';
import { countryResponseSchema } from '../../../../shared/schemas/responses';
import { fetchBff } from '../../../lib/api-client';

const DAY = 86_400_000;
/** The period a brief covers: trends and alerts of the 30 days up to the newest batch. */
export const BRIEF_DAYS = 30;

/** The start of the period ending at `latest` (an `as_of`), in epoch ms. */
export function periodStart(latest: string | undefined): number {
  return latest ? Date.parse(latest) - BRIEF_DAYS * DAY : -Infinity;
}

/** Everything a brief reads: history (no upstream request), country details, alerts. */
export const briefQueries = {
  all: () => ['brief'] as const,
  // The whole history (a point per batch, small); the brief keeps the period it shows.
  global: () =>
    queryOptions({
      queryKey: [...briefQueries.all(), 'global'] as const,
      queryFn: ({ signal }) => fetchBff('/api/history/global', globalHistoryResponseSchema, signal),
      meta: { label: 'the global history' },
    }),
  movers: () =>
    queryOptions({
      queryKey: [...briefQueries.all(), 'movers'] as const,
      queryFn: ({ signal }) =>
        fetchBff('/api/changes?since=previous', changesResponseSchema, signal),
      meta: { label: 'the top movers' },
    }),
  country: (iso: string) =>
    queryOptions({
      queryKey: [...briefQueries.all(), 'country', iso] as const,
      queryFn: ({ signal }) =>
        fetchBff(`/api/v1/country/${encodeURIComponent(iso)}`, countryResponseSchema, signal),
      meta: { label: `the data of ${iso}` },
    }),
  trend: (iso: string) =>
    queryOptions({
      queryKey: [...briefQueries.all(), 'trend', iso] as const,
      queryFn: ({ signal }) =>
        fetchBff(
          `/api/history/country/${encodeURIComponent(iso)}`,
          countryHistoryResponseSchema,
          signal,
        ),
      meta: { label: `the trend of ${iso}` },
    }),
  alerts: (iso: string) =>
    queryOptions({
      queryKey: [...briefQueries.all(), 'alerts', iso] as const,
      queryFn: ({ signal }) =>
        fetchBff(
          `/api/alerts?iso=${encodeURIComponent(iso)}&limit=5`,
          alertListResponseSchema,
          signal,
        ),
      meta: { label: `the alerts of ${iso}` },
    }),
};
