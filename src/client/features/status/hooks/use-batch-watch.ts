import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { statusQueries } from '../api/status-queries';

/**
 * Polls `/api/status` and, when it reports a new `as_of` (a new batch), marks every data query
 * stale so what is on screen refreshes to the new batch. The first `as_of` seen only sets the
 * baseline: data loaded with the page is already from that batch.
 */
export function useBatchWatch(): void {
  const queryClient = useQueryClient();
  const { data } = useQuery(statusQueries.current());
  const asOf = data?.data.as_of ?? null;
  const seen = useRef<string | null>(null);

  useEffect(() => {
    if (asOf === null) return;
    const previous = seen.current;
    seen.current = asOf;
    if (previous !== null && previous !== asOf) {
      void queryClient.invalidateQueries({
        predicate: (query) => query.queryKey[0] !== statusQueries.all()[0],
      });
    }
  }, [asOf, queryClient]);
}
