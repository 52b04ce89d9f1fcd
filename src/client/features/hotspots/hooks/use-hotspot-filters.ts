import { useCallback, useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { useParamsWriter } from '../../../lib/url-writer';
import { applyFilters, parseFilters, type HotspotFilters } from '../utils/filters';

/** Writes a change of the filters into the URL; resolves once the router has it. */
export type HotspotFiltersUpdate = (change: Partial<HotspotFilters>) => Promise<void>;

/**
 * The hotspot filters read from and written to the URL (the URL drives the query keys). A change
 * is applied as a transition (react-router's RouterProvider), not within the event: the table,
 * the map's markers and the request follow it a moment later, and a click or key press in
 * between is not held up by them (issue 32, point 7: with flushSync a tier box's click drew the
 * whole overview). The inputs show their change at once on their own (HotspotFilterBar).
 */
export function useHotspotFilters(): [HotspotFilters, HotspotFiltersUpdate] {
  const [params] = useSearchParams();
  const setParams = useParamsWriter();
  const filters = useMemo(() => parseFilters(params), [params]);
  // Replace, not push: filtering is refinement of one view, and Back should leave the page.
  const update = useCallback<HotspotFiltersUpdate>(
    (change) =>
      setParams((current) => applyFilters(current, { ...parseFilters(current), ...change })),
    [setParams],
  );
  // A hand-edited `?tier=CRIT` is read as `crit`; the URL is corrected too, so a copied link
  // shows what the page shows.
  const canonicalTier = filters.tiers.length > 0 ? filters.tiers.join(',') : null;
  const urlTier = params.get('tier');
  useEffect(() => {
    if (urlTier === canonicalTier) return;
    void setParams((current) => applyFilters(current, parseFilters(current)));
  }, [urlTier, canonicalTier, setParams]);
  return [filters, update];
}
