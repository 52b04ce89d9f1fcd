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
/** The period a brief covers: trends and alerts of the last 30 days. */
export const BRIEF_DAYS = 30;

function since(now: number): string {
  return new Date(now - BRIEF_DAYS * DAY).toISOString();
}

/** Everything a brief reads: history (no upstream request), country details, alerts. */
export const briefQueries = {
  all: () => ['brief'] as const,
  global: (now: number) =>
    queryOptions({
      queryKey: [...briefQueries.all(), 'global', Math.floor(now / DAY)] as const,
      queryFn: ({ signal }) =>
        fetchBff(
          `/api/history/global?from=${encodeURIComponent(since(now))}`,
          globalHistoryResponseSchema,
          signal,
        ),
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
        fetchBff(
          `/api/v1/country/${encodeURIComponent(iso)}?include=categories,events`,
          countryResponseSchema,
          signal,
        ),
      meta: { label: `the data of ${iso}` },
    }),
  trend: (iso: string, now: number) =>
    queryOptions({
      queryKey: [...briefQueries.all(), 'trend', iso, Math.floor(now / DAY)] as const,
      queryFn: ({ signal }) =>
        fetchBff(
          `/api/history/country/${encodeURIComponent(iso)}?from=${encodeURIComponent(since(now))}`,
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
