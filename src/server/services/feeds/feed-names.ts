/**
 * The feeds (issue 34), each at `GET /api/feeds/<name>.csv` and `.json`; a feed token names the
 * ones it may read. The names are part of the documented API: never renamed.
 */
export const FEED_NAMES = [
  'countries',
  'country-history',
  'watchlist-countries',
  'alerts',
] as const;
export type FeedName = (typeof FEED_NAMES)[number];

export function isFeedName(name: string): name is FeedName {
  return (FEED_NAMES as readonly string[]).includes(name);
}
