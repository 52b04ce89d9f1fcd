import { queryOptions } from '@tanstack/react-query';
import { statusResponseSchema } from '../../../../shared/bff-api';
import { STATUS_POLL_MS } from '../../../../shared/freshness';
import { fetchBff } from '../../../lib/api-client';
import { STATUS_PATH } from '../../../../shared/page-data';
import { t } from '../../../lib/i18n';

/** `/api/status` costs no upstream request, so it is polled; it is how a new batch is noticed. */
export const statusQueries = {
  all: () => ['status'] as const,
  current: () =>
    queryOptions({
      queryKey: [...statusQueries.all(), 'current'] as const,
      queryFn: ({ signal }) => fetchBff(STATUS_PATH, statusResponseSchema, signal),
      staleTime: STATUS_POLL_MS / 2,
      refetchInterval: STATUS_POLL_MS,
      meta: { label: t('queries.status') },
    }),
};
