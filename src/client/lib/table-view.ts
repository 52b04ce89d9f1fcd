/**
 * A table's view in the URL: which tiers, what text, which column sorted which way
 * (`?tier=crit,high&q=sud&sort=risk&dir=desc`). The hotspot table and All countries use the same
 * names, so a copied link reproduces the view and switching tables keeps the filter. Parsing is
 * forgiving: a hand-edited bad value falls back to the default (rank, ascending) instead of
 * breaking the page.
 */
import { parseTierList } from '../../shared/page-data';
import type { SortDir } from '../components/data-table';

export interface TableView<Key extends string> {
  /** Selected tier labels, sorted and de-duplicated; empty means all tiers. */
  tiers: string[];
  q: string;
  sort: Key;
  dir: SortDir;
}

export function parseTableView<Key extends string>(
  params: URLSearchParams,
  sortKeys: readonly Key[],
): TableView<Key | 'rank'> {
  const sort = params.get('sort');
  const known = sort !== null && (sortKeys as readonly string[]).includes(sort);
  return {
    tiers: parseTierList(params.get('tier')),
    q: params.get('q') ?? '',
    sort: known ? (sort as Key) : 'rank',
    dir: params.get('dir') === 'desc' ? 'desc' : 'asc',
  };
}

/** Writes the view into a copy of `params`, defaults left out so URLs stay short. */
export function applyTableView(params: URLSearchParams, view: TableView<string>): URLSearchParams {
  const next = new URLSearchParams(params);
  const set = (key: string, value: string | null) =>
    value === null ? next.delete(key) : next.set(key, value);
  set('tier', view.tiers.length > 0 ? view.tiers.join(',') : null);
  set('q', view.q === '' ? null : view.q);
  set('sort', view.sort === 'rank' ? null : view.sort);
  set('dir', view.sort === 'rank' && view.dir === 'asc' ? null : view.dir);
  return next;
}
