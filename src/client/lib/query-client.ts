import { QueryCache, QueryClient } from '@tanstack/react-query';
import { CLIENT_STALE_TIME_MS } from '../../shared/freshness';
import { ApiError } from './api-client';
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

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        // A first load shows its error in its panel; only a failed refresh of data already on
        // screen is worth interrupting for, and that data stays (marked stale).
        if (query.state.data === undefined) return;
        const what = query.meta?.label ?? 'the data';
        showToast(
          query.queryHash,
          `Could not refresh ${what}: ${error.message}. The data on screen is kept and marked stale.`,
        );
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: CLIENT_STALE_TIME_MS,
        retry: shouldRetry,
        retryDelay: (attempt) => Math.min(1000 * 2 ** attempt, 8000),
        refetchOnWindowFocus: true,
      },
    },
  });
}
