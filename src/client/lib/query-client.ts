import { QueryCache, QueryClient, type Query } from '@tanstack/react-query';
import { CLIENT_STALE_TIME_MS } from '../../shared/freshness';
import { ApiError } from './api-client';
import { t } from './i18n';
import { showToast } from './toasts';

declare module '@tanstack/react-query' {
  interface Register {
    defaultError: Error;
    /** `label` names the data in a toast ("the hotspot list"). */
    queryMeta: { label?: string };
  }
}

const MAX_RETRIES = 2;

/**
 * Retries only what may succeed on a second try: never 4xx answers (a 429 says when instead),
 * and never an answer that says when to ask again (a 503 with Retry-After during an outage):
 * the page shows that time at once instead of "Loading" through retries bound to fail.
 */
export function shouldRetry(failureCount: number, error: Error): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  if (error instanceof ApiError && error.retryAfterSeconds !== null) return false;
  return failureCount < MAX_RETRIES;
}

/** An error younger than this is shown, not asked again, when a component mounts on it. */
export const RECENT_ERROR_MS = 5_000;

/**
 * Whether mounting on a failed query asks again. Not when the failure is a few seconds old: it
 * was just asked for (started before the first render, or prefetched on a row's hover and the
 * row then opened), and asking again at once would double every fast failure (a 404, a 503 with
 * Retry-After) and flash "Loading" before the same error. An older error is asked again.
 */
export function retryOnMount(query: Query): boolean {
  return Date.now() - query.state.errorUpdatedAt >= RECENT_ERROR_MS;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        // A first load shows its error in its panel; only a failed refresh of data already on
        // screen is worth interrupting for, and that data stays (marked stale).
        if (query.state.data === undefined) return;
        // Each query's label is said in the page's language where the query is defined
        // (catalogue section `queries`, issue 34).
        const label = query.meta?.label;
        showToast(
          query.queryHash,
          t('problems.couldNotRefresh', {
            what: typeof label === 'string' ? label : t('problems.theData'),
            message: error.message,
          }),
        );
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: CLIENT_STALE_TIME_MS,
        retry: shouldRetry,
        retryOnMount,
        retryDelay: (attempt) => Math.min(1000 * 2 ** attempt, 8000),
        refetchOnWindowFocus: true,
        // Ask even when the browser says it is offline: the service worker answers with the
        // last copy it kept (app/offline-worker.ts), and the offline banner says from when.
        networkMode: 'offlineFirst',
      },
    },
  });
}
