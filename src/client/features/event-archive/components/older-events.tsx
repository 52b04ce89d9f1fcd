import { QueryError } from '../../../components/query-error';

/** What the paging of an archive list needs from its infinite query. */
interface Paged {
  error: Error | null;
  isFetchNextPageError: boolean;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/** "Show older events" under an archive list, and the error of a page that failed to load. */
export function OlderEvents({ query }: { query: Paged }) {
  return (
    <>
      {query.isFetchNextPageError && query.error ? (
        <QueryError what="Older events" error={query.error} />
      ) : null}
      {query.hasNextPage ? (
        <button
          type="button"
          onClick={() => void query.fetchNextPage()}
          disabled={query.isFetchingNextPage}
        >
          {query.isFetchingNextPage ? 'Loading older events…' : 'Show older events'}
        </button>
      ) : null}
    </>
  );
}
