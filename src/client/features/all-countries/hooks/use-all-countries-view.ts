import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { applyTableView, parseTableView, type TableView } from '../../../lib/table-view';
import { SCORE_FIELDS } from '../../../../shared/score-fields';

export const ALL_COUNTRIES_SORT_KEYS = [
  'rank',
  'name',
  'region',
  ...SCORE_FIELDS,
  // The team view's column of the provider's risk beside ours (issue 31).
  'provider_risk',
] as const;
export type AllCountriesSortKey = (typeof ALL_COUNTRIES_SORT_KEYS)[number];

export type AllCountriesView = TableView<AllCountriesSortKey>;

/** Reads the view; a hand-edited bad value falls back to the default (rank, highest risk first). */
export function parseAllCountriesView(params: URLSearchParams): AllCountriesView {
  return parseTableView(params, ALL_COUNTRIES_SORT_KEYS);
}

/** Writes the view back, defaults left out; other parameters (table, region) are kept. */
export const applyAllCountriesView = applyTableView;

/**
 * The All countries table's search, tier filter and sort, in the URL under the same names as the
 * hotspot table's (`?table=all&tier=crit&q=sud&sort=risk&dir=desc`): a copied link reproduces the
 * view, and switching tables keeps the filter.
 */
export function useAllCountriesView(): [
  AllCountriesView,
  (change: Partial<AllCountriesView>) => void,
] {
  const [params, setParams] = useSearchParams();
  const view = useMemo(() => parseAllCountriesView(params), [params]);
  const update = useCallback(
    (change: Partial<AllCountriesView>) =>
      // Replace (a refinement of one view), and within the event: the inputs are controlled by
      // the URL (the hotspot table's instead show their change at once and write the URL as a
      // transition: useHotspotFilters, issue 32).
      setParams(
        (current) =>
          applyAllCountriesView(current, { ...parseAllCountriesView(current), ...change }),
        { replace: true, preventScrollReset: true, flushSync: true },
      ),
    [setParams],
  );
  return [view, update];
}
