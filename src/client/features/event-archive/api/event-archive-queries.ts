import { infiniteQueryOptions } from '@tanstack/react-query';
import { eventsResponseSchema } from '../../../../shared/history-api';
import { fetchBff } from '../../../lib/api-client';
import { t } from '../../../lib/i18n';

function archiveUrl(iso: string, q: string, cursor: string | null): string {
  const params = new URLSearchParams({ iso });
  if (q !== '') params.set('q', q);
  if (cursor !== null) params.set('cursor', cursor);
  return `/api/events?${params.toString()}`;
}

/** What the cross-country search asks: each empty value means "any". */
export interface EventFilters {
  q: string;
  /** The countries asked (at most EVENT_COUNTRIES_MAX); or a region, or a watchlist's id. */
  isos: string[];
  region: string;
  watchlist: string;
  /** Calendar days (YYYY-MM-DD, UTC), both inclusive. */
  from: string;
  to: string;
  breaking: boolean;
}

/** Codes one search may name (the BFF's bound; a region or a watchlist names its own). */
export const EVENT_COUNTRIES_MAX = 50;

function searchParams(filters: EventFilters, cursor: string | null): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.isos.length > 0) params.set('iso', filters.isos.join(','));
  else if (filters.region !== '') params.set('region', filters.region);
  else if (filters.watchlist !== '') params.set('watchlist', filters.watchlist);
  if (filters.q !== '') params.set('q', filters.q);
  if (filters.from !== '') params.set('from', `${filters.from}T00:00:00.000Z`);
  if (filters.to !== '') params.set('to', `${filters.to}T23:59:59.999Z`);
  if (filters.breaking) params.set('breaking', 'true');
  if (cursor !== null) params.set('cursor', cursor);
  return params;
}

function searchUrl(filters: EventFilters, cursor: string | null): string {
  const query = searchParams(filters, cursor).toString();
  return query === '' ? '/api/events' : `/api/events?${query}`;
}

/** The search's spreadsheet (the BFF's newest 5,000 matching events, one row each). */
export function eventsCsvUrl(filters: EventFilters): string {
  const query = searchParams(filters, null).toString();
  return `/api/spreadsheet/events.csv${query === '' ? '' : `?${query}`}`;
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
      meta: { label: t('events.metaArchive', { iso }) },
    }),
  /** The archive of every country, filtered (the Events page). */
  search: (filters: EventFilters) =>
    infiniteQueryOptions({
      queryKey: [...eventArchiveQueries.all(), 'search', filters] as const,
      queryFn: ({ pageParam, signal }) =>
        fetchBff(searchUrl(filters, pageParam), eventsResponseSchema, signal),
      initialPageParam: null as string | null,
      getNextPageParam: (last) => last.data.next_cursor,
      meta: { label: t('events.metaSearch') },
    }),
};
