import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { parseEventFilters, type EventFilters } from '../utils/event-filters';

/** Event filters in the URL (`?role=actor&breaking=1`), so a shared link shows the same feed. */
export function useEventFilters(): [EventFilters, (change: Partial<EventFilters>) => void] {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => parseEventFilters(params), [params]);
  const update = useCallback(
    (change: Partial<EventFilters>) =>
      setParams(
        (current) => {
          const next = { ...parseEventFilters(current), ...change };
          const updated = new URLSearchParams(current);
          if (next.role === null) updated.delete('role');
          else updated.set('role', next.role);
          if (next.breakingOnly) updated.set('breaking', '1');
          else updated.delete('breaking');
          return updated;
        },
        { replace: true, preventScrollReset: true, flushSync: true },
      ),
    [setParams],
  );
  return [filters, update];
}
