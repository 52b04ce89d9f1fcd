import { FEED_CHOICES } from '../../../shared/reach-api.js';

/**
 * The feeds (issue 34), each at `GET /api/feeds/<name>.csv` and `.json`; a feed token names the
 * ones it may read. The names are part of the documented API: never renamed.
 */
export const FEED_NAMES = FEED_CHOICES;
export type FeedName = (typeof FEED_NAMES)[number];
