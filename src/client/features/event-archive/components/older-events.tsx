import { QueryError } from '../../../components/query-error';
import { t } from '../../../lib/i18n';

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
        <QueryError what={t('events.older')} error={query.error} />
      ) : null}
      {query.hasNextPage ? (
        <button
          type="button"
          onClick={() => void query.fetchNextPage()}
          disabled={query.isFetchingNextPage}
        >
          {query.isFetchingNextPage ? t('events.loadingOlder') : t('events.showOlder')}
        </button>
      ) : null}
    </>
  );
}
