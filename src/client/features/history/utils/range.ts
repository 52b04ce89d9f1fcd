import { DAY_MS } from '../../../../shared/durations';
import { t } from '../../../lib/i18n';

/** The trend ranges people pick, in the URL as `?<param>=30d`; "all" is everything recorded. */
export const TREND_RANGES = ['7d', '30d', '90d', 'all'] as const;
export type TrendRange = (typeof TREND_RANGES)[number];
export const DEFAULT_RANGE: TrendRange = '30d';

const RANGE_KEYS = {
  '7d': 'trend.days7',
  '30d': 'trend.days30',
  '90d': 'trend.days90',
  all: 'trend.all',
} as const;

/** A range's name in the page's language ("30 days"). */
export function rangeLabel(range: TrendRange): string {
  return t(RANGE_KEYS[range]);
}

const RANGE_DAYS: Record<Exclude<TrendRange, 'all'>, number> = { '7d': 7, '30d': 30, '90d': 90 };

export function parseRange(raw: string | null): TrendRange {
  return (TREND_RANGES as readonly string[]).includes(raw ?? '')
    ? (raw as TrendRange)
    : DEFAULT_RANGE;
}

/**
 * The points within `range` of the newest point (not of the clock: a history whose last batch is
 * a day old still shows a full week). Points are oldest first, as the BFF sends them.
 */
export function sliceRange<T extends { as_of: string }>(points: readonly T[], range: TrendRange) {
  const newest = points.at(-1);
  if (range === 'all' || !newest) return [...points];
  const last = Date.parse(newest.as_of);
  if (Number.isNaN(last)) return [...points];
  const from = last - RANGE_DAYS[range] * DAY_MS;
  return points.filter((point) => {
    const at = Date.parse(point.as_of);
    return !Number.isNaN(at) && at >= from;
  });
}
