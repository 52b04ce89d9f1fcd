import type { RiskIndex } from '../../../../shared/team-index-api';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod/mini';
import {
  deliveryLogResponseSchema,
  watchlistListResponseSchema,
  watchlistResponseSchema,
  type Watchlist,
  type WatchlistInput,
} from '../../../../shared/alerts-api';
import { fetchBff } from '../../../lib/api-client';
import { writeBff } from '../../../lib/api-write';
import { bffQueries } from '../../../lib/bff-queries';
import { t } from '../../../lib/i18n';

/** The name of the list that "Follow" adds to (made on the first follow). */
export const FOLLOWING_LIST = 'Following';

export const watchlistQueries = {
  all: () => ['watchlists'] as const,
  list: () =>
    queryOptions({
      queryKey: [...watchlistQueries.all(), 'list'] as const,
      queryFn: ({ signal }) => fetchBff('/api/watchlists', watchlistListResponseSchema, signal),
      staleTime: 30_000,
      meta: { label: t('watchlists.metaLists') },
    }),
  detail: (id: string) =>
    queryOptions({
      queryKey: [...watchlistQueries.all(), 'detail', id] as const,
      queryFn: ({ signal }) =>
        fetchBff(`/api/watchlists/${encodeURIComponent(id)}`, watchlistResponseSchema, signal),
      staleTime: 30_000,
      meta: { label: t('watchlists.metaList') },
    }),
  deliveries: (id: string) =>
    queryOptions({
      queryKey: [...watchlistQueries.all(), 'deliveries', id] as const,
      queryFn: ({ signal }) =>
        fetchBff(
          `/api/watchlists/${encodeURIComponent(id)}/deliveries`,
          deliveryLogResponseSchema,
          signal,
        ),
      staleTime: 10_000,
      meta: { label: t('watchlists.metaLog') },
    }),
  /** A country's recent trend for a sparkline (the history API; no upstream request). */
  trend: (iso: string, index: RiskIndex = 'provider') =>
    queryOptions({ ...bffQueries.historyCountry(iso, index), staleTime: 5 * 60_000 }),
};

/** The fields a PUT must repeat (it replaces the whole list). */
export function inputOf(list: Watchlist): WatchlistInput {
  return {
    name: list.name,
    countries: list.countries,
    rules: list.rules,
    webhook_url: list.webhook?.url ?? null,
    webhook_format: list.webhook?.format ?? 'standard',
    email: list.email,
    language: list.language ?? 'en',
  };
}

export const etagOf = (list: Watchlist): string => `"${list.version}"`;

export function createWatchlist(input: WatchlistInput) {
  return writeBff('POST', '/api/watchlists', watchlistResponseSchema, { body: input });
}

export function saveWatchlist(list: Watchlist, input: WatchlistInput) {
  return writeBff(
    'PUT',
    `/api/watchlists/${encodeURIComponent(list.id)}`,
    watchlistResponseSchema,
    {
      body: input,
      ifMatch: etagOf(list),
    },
  );
}

export function deleteWatchlist(list: Watchlist) {
  return writeBff(
    'DELETE',
    `/api/watchlists/${encodeURIComponent(list.id)}`,
    z.looseObject({ ok: z.literal(true) }),
    {
      ifMatch: etagOf(list),
    },
  );
}

export function sendTestWebhook(list: Watchlist) {
  return writeBff(
    'POST',
    `/api/watchlists/${encodeURIComponent(list.id)}/test`,
    z.looseObject({ ok: z.literal(true), message_id: z.string() }),
  );
}
