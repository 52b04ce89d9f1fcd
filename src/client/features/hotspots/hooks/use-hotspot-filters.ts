import { useCallback, useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { applyFilters, parseFilters, type HotspotFilters } from '../utils/filters';

/** The hotspot filters read from and written to the URL (the URL drives the query keys). */
export function useHotspotFilters(): [HotspotFilters, (change: Partial<HotspotFilters>) => void] {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => parseFilters(params), [params]);
  const update = useCallback(
    (change: Partial<HotspotFilters>) => {
      // Replace, not push: filtering is refinement of one view, and Back should leave the page.
      // flushSync: the inputs are controlled by the URL, so it must update within the event (a
      // deferred update would reset a checkbox for a moment and move the caret in the search).
      setParams((current) => applyFilters(current, { ...parseFilters(current), ...change }), {
        replace: true,
        preventScrollReset: true,
        flushSync: true,
      });
    },
    [setParams],
  );
  // A hand-edited `?tier=CRIT` is read as `crit`; the URL is corrected too, so a copied link
  // shows what the page shows.
  const canonicalTier = filters.tiers.length > 0 ? filters.tiers.join(',') : null;
  const urlTier = params.get('tier');
  useEffect(() => {
    if (urlTier === canonicalTier) return;
    setParams((current) => applyFilters(current, parseFilters(current)), {
      replace: true,
      preventScrollReset: true,
    });
  }, [urlTier, canonicalTier, setParams]);
  return [filters, update];
}
