import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { applyFilters, parseFilters, type HotspotFilters } from '../utils/filters';

/** The hotspot filters read from and written to the URL (the URL drives the query keys). */
export function useHotspotFilters(): [HotspotFilters, (change: Partial<HotspotFilters>) => void] {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => parseFilters(params), [params]);
  const update = useCallback(
    (change: Partial<HotspotFilters>) => {
      // Replace, not push: filtering is refinement of one view, and Back should leave the page.
      setParams((current) => applyFilters(current, { ...parseFilters(current), ...change }), {
        replace: true,
        preventScrollReset: true,
      });
    },
    [setParams],
  );
  return [filters, update];
}
