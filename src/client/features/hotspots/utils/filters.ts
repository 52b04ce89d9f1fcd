/**
 * The hotspot view lives in the URL (`?tier=crit,high&limit=50&q=sud&sort=risk&dir=desc`), so a
 * copied link reproduces it. Parsing is forgiving: a hand-edited bad value falls back to the
 * default instead of breaking the page.
 */
import { DEFAULT_HOTSPOT_LIMIT, parseHotspotLimit } from '../../../../shared/page-data';
import { applyTableView, parseTableView, type TableView } from '../../../lib/table-view';

// The request half of the view (tiers, limit) is read the same way by the BFF's preload hints.
export {
  DEFAULT_HOTSPOT_LIMIT as DEFAULT_LIMIT,
  MAX_HOTSPOT_LIMIT as MAX_LIMIT,
  parseTierList as parseTiers,
  clampHotspotLimit as clampLimit,
  parseHotspotLimit as parseLimit,
} from '../../../../shared/page-data';
import { SCORE_FIELDS } from '../../../../shared/score-fields';

export const SORT_KEYS = [
  'rank',
  'name',
  ...SCORE_FIELDS,
  'confidence',
  'profile',
  'source_count',
] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export type { SortDir } from '../../../components/data-table';

export interface HotspotFilters extends TableView<SortKey> {
  limit: number;
}

export function parseFilters(params: URLSearchParams): HotspotFilters {
  return { ...parseTableView(params, SORT_KEYS), limit: parseHotspotLimit(params.get('limit')) };
}

/** Writes filters back, leaving defaults out so URLs stay short; other params are kept. */
export function applyFilters(params: URLSearchParams, filters: HotspotFilters): URLSearchParams {
  const next = applyTableView(params, filters);
  if (filters.limit === DEFAULT_HOTSPOT_LIMIT) next.delete('limit');
  else next.set('limit', String(filters.limit));
  return next;
}
