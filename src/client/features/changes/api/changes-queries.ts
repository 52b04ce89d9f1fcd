import { queryOptions } from '@tanstack/react-query';
import { changesResponseSchema } from '../../../../shared/history-api';
import { fetchBff } from '../../../lib/api-client';
import type { ChangesSince } from '../utils/since';

/** `/api/changes?since=`: what moved between the latest batch and an earlier one. */
export const changesQueries = {
  all: () => ['changes'] as const,
  since: (since: ChangesSince) =>
    queryOptions({
      queryKey: [...changesQueries.all(), since] as const,
      queryFn: ({ signal }) =>
        fetchBff(`/api/changes?since=${encodeURIComponent(since)}`, changesResponseSchema, signal),
      meta: { label: 'what changed' },
    }),
};
