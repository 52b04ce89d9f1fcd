import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { statusQueries } from '../api/status-queries';

const SETTLE_MS = 400;

/**
 * The quota shown comes from `/api/status`, polled once a minute. An answer marked
 * `X-Cache: MISS` means the BFF has just spent an upstream request, so the status is re-read
 * (after the burst of first-load requests settles) instead of showing an outdated figure.
 */
export function useQuotaFollow(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unsubscribe = queryClient.getQueryCache().subscribe((event) => {
      if (event.type !== 'updated' || event.action.type !== 'success') return;
      if (event.query.queryKey[0] === statusQueries.all()[0]) return;
      const data: unknown = event.query.state.data;
      const cache =
        typeof data === 'object' && data !== null && 'cache' in data ? data.cache : null;
      if (cache !== 'MISS') return;
      clearTimeout(timer);
      timer = setTimeout(
        () => void queryClient.invalidateQueries({ queryKey: statusQueries.all() }),
        SETTLE_MS,
      );
    });
    return () => {
      clearTimeout(timer);
      unsubscribe();
    };
  }, [queryClient]);
}
