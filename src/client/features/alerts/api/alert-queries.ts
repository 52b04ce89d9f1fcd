import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod/mini';
import {
  acknowledgeResponseSchema,
  acknowledgementHistorySchema,
  triagedAlertListSchema,
  type AcknowledgeInput,
  type Disposition,
  type InboxState,
} from '../../../../shared/alert-triage-api';
import { watchlistListResponseSchema } from '../../../../shared/alerts-api';
import { fetchBff } from '../../../lib/api-client';
import { writeBff } from '../../../lib/api-write';
import { t } from '../../../lib/i18n';
import { ALERTS_KEY, ALERTS_STALE_MS, unreadQuery } from './unread-query';

/** The inbox's filters, as the URL holds them. */
export interface InboxFilter {
  state?: InboxState;
  watchlist?: string;
  iso?: string;
  disposition?: Disposition;
  limit?: number;
}

export const alertQueries = {
  all: () => ALERTS_KEY,
  unread: unreadQuery,
  list: (filter: InboxFilter) =>
    queryOptions({
      queryKey: [...alertQueries.all(), 'list', filter] as const,
      queryFn: ({ signal }) => {
        const params = new URLSearchParams();
        if (filter.state) params.set('state', filter.state);
        if (filter.watchlist) params.set('watchlist', filter.watchlist);
        if (filter.iso) params.set('iso', filter.iso);
        if (filter.disposition) params.set('disposition', filter.disposition);
        params.set('limit', String(filter.limit ?? 100));
        return fetchBff(`/api/alerts?${params}`, triagedAlertListSchema, signal);
      },
      staleTime: ALERTS_STALE_MS,
      meta: { label: t('alertItems.metaAlerts') },
    }),
  history: (alertId: string) =>
    queryOptions({
      queryKey: [...alertQueries.all(), 'history', alertId] as const,
      queryFn: ({ signal }) =>
        fetchBff(
          `/api/alerts/${encodeURIComponent(alertId)}/acknowledgements`,
          acknowledgementHistorySchema,
          signal,
        ),
      meta: { label: t('alertItems.metaAcks') },
    }),
  /** The lists (names and countries) the inbox can be filtered by. */
  lists: () =>
    queryOptions({
      queryKey: [...alertQueries.all(), 'lists'] as const,
      queryFn: ({ signal }) => fetchBff('/api/watchlists', watchlistListResponseSchema, signal),
      staleTime: ALERTS_STALE_MS,
      meta: { label: t('alertItems.metaLists') },
    }),
};

const markedSchema = z.looseObject({ ok: z.literal(true), marked: z.number(), unread: z.number() });

/** Marks the given alerts read, or all of them. */
export function markAlertsRead(ids: string[] | 'all') {
  return writeBff('POST', '/api/alerts/read', markedSchema, {
    body: ids === 'all' ? { all: true } : { ids },
  });
}

/** Acknowledges an alert for the team (or changes the acknowledgement it showed). */
export function acknowledgeAlert(alertId: string, input: AcknowledgeInput) {
  return writeBff(
    'POST',
    `/api/alerts/${encodeURIComponent(alertId)}/acknowledgement`,
    acknowledgeResponseSchema,
    { body: input },
  );
}
