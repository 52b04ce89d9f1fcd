import { DAY_MS } from '../../../../shared/durations';

/** The trend ranges people pick, in the URL as `?<param>=30d`; "all" is everything recorded. */
export const TREND_RANGES = ['7d', '30d', '90d', 'all'] as const;
export type TrendRange = (typeof TREND_RANGES)[number];
export const DEFAULT_RANGE: TrendRange = '30d';

export const RANGE_LABELS: Record<TrendRange, string> = {
  '7d': '7 days',
  '30d': '30 days',
  '90d': '90 days',
  all: 'All',
};

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
