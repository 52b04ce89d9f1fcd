import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { batchListResponseSchema, BATCHES_PAGE_MAX } from '../../../../shared/batches-api';
import { fetchBff } from '../../../lib/api-client';

function listPath(before: string | null, limit: number): string {
  const params = new URLSearchParams({ limit: String(limit) });
  if (before !== null) params.set('before', before);
  return `/api/batches?${params.toString()}`;
}

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
      meta: { label: 'the recorded batches' },
    }),
  /** The batch a time falls in: the newest at or before it (what `?as_of=` answers for). */
  at: (asOf: string) =>
    queryOptions({
      queryKey: [...batchQueries.all(), 'at', asOf] as const,
      queryFn: ({ signal }) =>
        fetchBff(
          listPath(new Date(Date.parse(asOf) + 1).toISOString(), 1),
          batchListResponseSchema,
          signal,
        ),
      select: ({ data }) => data.batches[0] ?? null,
      staleTime: Number.POSITIVE_INFINITY,
      meta: { label: 'the batch shown' },
    }),
};
