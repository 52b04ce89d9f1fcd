import { queryOptions } from '@tanstack/react-query';
import { alertListResponseSchema } from '../../../../shared/alerts-api';
import { fetchBff } from '../../../lib/api-client';
import { bffQueries } from '../../../lib/bff-queries';
import { t } from '../../../lib/i18n';

const DAY = 86_400_000;
/** The period a brief covers: trends and alerts of the 30 days up to the newest batch. */
export const BRIEF_DAYS = 30;

/** The start of the period ending at `latest` (an `as_of`), in epoch ms. */
export function periodStart(latest: string | undefined): number {
  return latest ? Date.parse(latest) - BRIEF_DAYS * DAY : -Infinity;
}

/** A history's points up to the batch the brief is as of (all of them for the latest). */
export function upToBatch<P extends { as_of: string }>(
  points: readonly P[],
  asOf: string | null,
): P[] {
  if (asOf === null) return [...points];
  const end = Date.parse(asOf);
  return points.filter((p) => Date.parse(p.as_of) <= end);
}

/** Everything a brief reads: history (no upstream request), country details, alerts. */
export const briefQueries = {
  all: () => ['brief'] as const,
  // The whole history (a point per batch, small); the brief keeps the period it shows. These
  // are the same queries the dashboard's pages use (lib/bff-queries), so nothing is fetched twice.
  global: bffQueries.historyGlobal,
  movers: (asOf: string | null = null) => bffQueries.changes('previous', asOf),
  country: bffQueries.country,
  trend: bffQueries.historyCountry,
  alerts: (iso: string) =>
    queryOptions({
      queryKey: [...briefQueries.all(), 'alerts', iso] as const,
      queryFn: ({ signal }) =>
        fetchBff(
          `/api/alerts?iso=${encodeURIComponent(iso)}&limit=5`,
          alertListResponseSchema,
          signal,
        ),
      meta: { label: t('queries.countryAlerts', { iso }) },
    }),
};
