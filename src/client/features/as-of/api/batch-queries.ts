import { infiniteQueryOptions } from '@tanstack/react-query';
import { batchListResponseSchema, BATCHES_PAGE_MAX } from '../../../../shared/batches-api';
import { fetchBff } from '../../../lib/api-client';
import { batchListPath as listPath } from '../../../lib/batch-ids';
import { bffQueries } from '../../../lib/bff-queries';
import { t } from '../../../lib/i18n';

/** `/api/batches`: the recorded batches with their ids, newest first (issue 22). */
export const batchQueries = {
  all: () => ['batches'] as const,
  /** The timeline, a page of 500 batches (250 days) at a time, older pages on demand. */
  timeline: () =>
    infiniteQueryOptions({
      queryKey: [...batchQueries.all(), 'timeline'] as const,
      queryFn: ({ pageParam, signal }) =>
        fetchBff(listPath(pageParam, BATCHES_PAGE_MAX), batchListResponseSchema, signal),
      initialPageParam: null as string | null,
      getNextPageParam: (last) => last.data.next_before,
      meta: { label: t('queries.batches') },
    }),
  /** The batch a time falls in: the newest at or before it (what `?as_of=` answers for). */
  at: (asOf: string) => bffQueries.batchAt(asOf),
};
