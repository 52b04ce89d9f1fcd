import { queryOptions } from '@tanstack/react-query';
import { unreadCountResponseSchema } from '../../../../shared/alerts-api';
import { fetchBff } from '../../../lib/api-client';
import { t } from '../../../lib/i18n';

// New alerts arrive with a batch (twice a day); a minute keeps the header count current enough.
export const ALERTS_STALE_MS = 60_000;

/** Every alert query's key starts with this: a change to alerts invalidates them all. */
export const ALERTS_KEY = ['alerts'] as const;

/**
 * The header's unread count, on every page: in a module of its own, so the first screen does
 * not load the inbox's queries and their schemas (the triage answers, the acknowledgements).
 */
export const unreadQuery = () =>
  queryOptions({
    queryKey: [...ALERTS_KEY, 'unread'] as const,
    queryFn: ({ signal }) =>
      fetchBff('/api/alerts/unread-count', unreadCountResponseSchema, signal),
    staleTime: ALERTS_STALE_MS,
    refetchInterval: ALERTS_STALE_MS,
    meta: { label: t('alertItems.metaUnread') },
  });
