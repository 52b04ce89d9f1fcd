import { infiniteQueryOptions } from '@tanstack/react-query';
import { eventsResponseSchema } from '../../../../shared/history-api';
import { fetchBff } from '../../../lib/api-client';

function archiveUrl(iso: string, q: string, cursor: string | null): string {
  const params = new URLSearchParams({ iso });
  if (q !== '') params.set('q', q);
  if (cursor !== null) params.set('cursor', cursor);
  return `/api/events?${params.toString()}`;
}

/** What the cross-country search asks: each empty value means "any". */
export interface EventFilters {
  q: string;
  iso: string;
  /** Calendar days (YYYY-MM-DD, UTC), both inclusive. */
  from: string;
  to: string;
  breaking: boolean;
}

function searchUrl(filters: EventFilters, cursor: string | null): string {
  const params = new URLSearchParams();
  if (filters.iso !== '') params.set('iso', filters.iso);
  if (filters.q !== '') params.set('q', filters.q);
  if (filters.from !== '') params.set('from', `${filters.from}T00:00:00.000Z`);
  if (filters.to !== '') params.set('to', `${filters.to}T23:59:59.999Z`);
  if (filters.breaking) params.set('breaking', 'true');
  if (cursor !== null) params.set('cursor', cursor);
  const query = params.toString();
  return query === '' ? '/api/events' : `/api/events?${query}`;
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
  /** The archive of every country, filtered (the Events page). */
  search: (filters: EventFilters) =>
    infiniteQueryOptions({
      queryKey: [...eventArchiveQueries.all(), 'search', filters] as const,
      queryFn: ({ pageParam, signal }) =>
        fetchBff(searchUrl(filters, pageParam), eventsResponseSchema, signal),
      initialPageParam: null as string | null,
      getNextPageParam: (last) => last.data.next_cursor,
      meta: { label: 'the event search' },
    }),
};
