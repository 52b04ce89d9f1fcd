import { z } from 'zod';
import {
  embedListSchema,
  embedMadeSchema,
  feedTokenListSchema,
  feedTokenMadeSchema,
} from '../../shared/reach-api.js';
import { FEED_NAMES } from '../services/feeds/feed-names.js';

/** What api-description.ts's ApiOperation takes (not imported: it imports this file). */
interface ApiOperation {
  summary: string;
  tag: 'Risk data' | 'Identity';
  produces?: string;
  success?: { status: number; schema: z.core.$ZodType };
}

const json = (schema: z.core.$ZodType, status = 200) => ({ status, schema });
const done = json(z.object({ ok: z.literal(true) }));
/** Every JSON feed answers `ok` and its rows; each feed's columns are in docs/api.md ("Feeds"). */
const feedJson = json(z.object({ ok: z.literal(true) }).catchall(z.unknown()));

/*
 * The OpenAPI words of the feeds, feed tokens and embeds (issue 34); api-description.ts spreads
 * them into its table. The feeds' columns and limits are in docs/api.md ("Feeds").
 */

const FEED_WORDS: Record<(typeof FEED_NAMES)[number], string> = {
  countries:
    'Every country of the newest recorded batch (or ?as_of=), in the country spreadsheet columns',
  'country-history': "One country's recorded series (?iso=, optional ?from=&to=)",
  'watchlist-countries':
    "A team watchlist's countries (?watchlist=<id>) in the newest recorded batch",
  alerts:
    "Team watchlists' alerts whose batch is in ?from=&to= (default the last 30 days; at most 366 days and 5,000 alerts)",
};

const TOKEN_WORDS =
  ': read with a feed token made for this feed, as ?token=grf_… or Authorization: Bearer (a feed token is refused anywhere else, 403). Served from the store only, never an upstream request; each token limited like any client (429 with Retry-After). Times in CSV as YYYY-MM-DD HH:MM:SS UTC, in JSON as ISO 8601.';

function feedOperations(): Record<string, ApiOperation> {
  const operations: Record<string, ApiOperation> = {};
  for (const name of FEED_NAMES) {
    operations[`GET /api/feeds/${name}.csv`] = {
      summary: `${FEED_WORDS[name]}, as CSV${TOKEN_WORDS}`,
      tag: 'Risk data',
      produces: 'text/csv',
    };
    operations[`GET /api/feeds/${name}.json`] = {
      summary: `${FEED_WORDS[name]}, as JSON${TOKEN_WORDS}`,
      tag: 'Risk data',
      success: feedJson,
    };
  }
  return operations;
}

export const reachOperations: Readonly<Record<string, ApiOperation>> = {
  ...feedOperations(),
  'GET /api/feed-tokens': {
    summary: 'Feed tokens (admin): name, feeds, expiry, last use, uses; never the secret',
    tag: 'Identity',
    success: json(feedTokenListSchema),
  },
  'POST /api/feed-tokens': {
    summary:
      'Make a feed token (admin): {"name", "feeds": [names], "expires_in_days" 1–365}; at most 50 live; its secret is in this answer only',
    tag: 'Identity',
    success: json(feedTokenMadeSchema, 201),
  },
  'DELETE /api/feed-tokens/:id': {
    summary: 'Revoke a feed token (admin): refused from its next read, on every replica',
    tag: 'Identity',
    success: done,
  },
  'GET /api/embeds': {
    summary:
      'Embeds (admin): view, subject, allowed origin, expiry, last use and how many times each was shown',
    tag: 'Identity',
    success: json(embedListSchema),
  },
  'POST /api/embeds': {
    summary:
      'Make an embed (admin): {"name", "view": map|index|country|watchlist, "subject" (ISO code or watchlist id), "origin", "expires_in_days" 1–365}; at most 50 live; its iframe URL is in this answer only',
    tag: 'Identity',
    success: json(embedMadeSchema, 201),
  },
  'DELETE /api/embeds/:id': {
    summary: 'Revoke an embed (admin): its page is refused from its next load, on every replica',
    tag: 'Identity',
    success: done,
  },
};
