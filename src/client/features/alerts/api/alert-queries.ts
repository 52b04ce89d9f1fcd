import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { alertListResponseSchema, unreadCountResponseSchema } from '../../../../shared/alerts-api';
import { fetchBff } from '../../../lib/api-client';
import { writeBff } from '../../../lib/api-write';

// New alerts arrive with a batch (twice a day); a minute keeps the header count current enough.
const ALERTS_STALE_MS = 60_000;

export const alertQueries = {
  all: () => ['alerts'] as const,
  unread: () =>
    queryOptions({
      queryKey: [...alertQueries.all(), 'unread'] as const,
      queryFn: ({ signal }) =>
        fetchBff('/api/alerts/unread-count', unreadCountResponseSchema, signal),
      staleTime: ALERTS_STALE_MS,
      refetchInterval: ALERTS_STALE_MS,
      meta: { label: 'the unread alert count' },
    }),
  list: (filter: { unreadOnly: boolean; watchlist?: string; limit?: number }) =>
    queryOptions({
      queryKey: [...alertQueries.all(), 'list', filter] as const,
      queryFn: ({ signal }) => {
        const params = new URLSearchParams();
        if (filter.unreadOnly) params.set('unread', '1');
        if (filter.watchlist) params.set('watchlist', filter.watchlist);
        params.set('limit', String(filter.limit ?? 100));
        return fetchBff(`/api/alerts?${params}`, alertListResponseSchema, signal);
      },
      staleTime: ALERTS_STALE_MS,
      meta: { label: 'the alerts' },
    }),
};

const markedSchema = z.looseObject({ ok: z.literal(true), marked: z.number(), unread: z.number() });

/** Marks the given alerts read, or all of them. */
export function markAlertsRead(ids: string[] | 'all') {
  return writeBff('POST', '/api/alerts/read', markedSchema, {
    body: ids === 'all' ? { all: true } : { ids },
  });
}
