import { infiniteQueryOptions } from '@tanstack/react-query';
import { eventsResponseSchema } from '../../../../shared/history-api';
import { fetchBff } from '../../../lib/api-client';

function archiveUrl(iso: string, q: string, cursor: string | null): string {
  const params = new URLSearchParams({ iso });
  if (q !== '') params.set('q', q);
  if (cursor !== null) params.set('cursor', cursor);
  return `/api/events?${params.toString()}`;
}

/** `/api/events?iso=&q=&cursor=`: the BFF's archive of a country's events, newest first, paged. */
export const eventArchiveQueries = {
  all: () => ['event-archive'] as const,
  country: (iso: string, q: string) =>
    infiniteQueryOptions({
      queryKey: [...eventArchiveQueries.all(), iso, { q }] as const,
      queryFn: ({ pageParam, signal }) =>
        fetchBff(archiveUrl(iso, q, pageParam), eventsResponseSchema, signal),
      initialPageParam: null as string | null,
      getNextPageParam: (last) => last.data.next_cursor,
      meta: { label: `the event archive of ${iso}` },
    }),
};
