import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { parseTierList } from '../../../../shared/page-data';
import type { SortDir } from '../../../components/data-table';

export const ALL_COUNTRIES_SORT_KEYS = [
  'rank',
  'name',
  'region',
  'risk',
  'tier',
  'static',
  'active',
  'delta_active',
  'delta_headline',
] as const;
export type AllCountriesSortKey = (typeof ALL_COUNTRIES_SORT_KEYS)[number];

export interface AllCountriesView {
  tiers: string[];
  q: string;
  sort: AllCountriesSortKey;
  dir: SortDir;
}

function isSortKey(value: string | null): value is AllCountriesSortKey {
  return value !== null && (ALL_COUNTRIES_SORT_KEYS as readonly string[]).includes(value);
}

/** Reads the view; a hand-edited bad value falls back to the default (rank, highest risk first). */
export function parseAllCountriesView(params: URLSearchParams): AllCountriesView {
  const sort = params.get('sort');
  return {
    tiers: parseTierList(params.get('tier')),
    q: params.get('q') ?? '',
    sort: isSortKey(sort) ? sort : 'rank',
    dir: params.get('dir') === 'desc' ? 'desc' : 'asc',
  };
}

/** Writes the view back, defaults left out; other parameters (table, region) are kept. */
export function applyAllCountriesView(
  params: URLSearchParams,
  view: AllCountriesView,
): URLSearchParams {
  const next = new URLSearchParams(params);
  const set = (key: string, value: string | null) =>
    value === null ? next.delete(key) : next.set(key, value);
  set('tier', view.tiers.length > 0 ? view.tiers.join(',') : null);
  set('q', view.q === '' ? null : view.q);
  set('sort', view.sort === 'rank' ? null : view.sort);
  set('dir', view.sort === 'rank' && view.dir === 'asc' ? null : view.dir);
  return next;
}

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
      // Replace, and within the event: see useHotspotFilters.
      setParams(
        (current) =>
          applyAllCountriesView(current, { ...parseAllCountriesView(current), ...change }),
        { replace: true, preventScrollReset: true, flushSync: true },
      ),
    [setParams],
  );
  return [view, update];
}
