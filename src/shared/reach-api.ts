import { z } from 'zod/mini';

/*
 * Feed tokens and embeds as the BFF lists and makes them (issue 34): the admin page reads these;
 * the server's services/feeds and services/embeds answer them.
 */

const listedShape = {
  id: z.string(),
  name: z.string(),
  created_at: z.string(),
  created_by: z.string(),
  expires_at: z.string(),
  last_used_at: z.nullable(z.string()),
  uses: z.number(),
};

export const feedTokenSchema = z.object({ ...listedShape, feeds: z.array(z.string()) });
export type FeedTokenListed = z.infer<typeof feedTokenSchema>;
export const feedTokenListSchema = z.object({
  ok: z.literal(true),
  tokens: z.array(feedTokenSchema),
});
export const feedTokenMadeSchema = z.object({
  ok: z.literal(true),
  token: feedTokenSchema,
  secret: z.string(),
});

export const embedSchema = z.object({
  ...listedShape,
  view: z.string(),
  subject: z.nullable(z.string()),
  origin: z.string(),
});
export type EmbedListed = z.infer<typeof embedSchema>;
export const embedListSchema = z.object({ ok: z.literal(true), embeds: z.array(embedSchema) });
export const embedMadeSchema = z.object({
  ok: z.literal(true),
  embed: embedSchema,
  url: z.string(),
  iframe: z.string(),
});

/** The feeds a token may name, and the embeds' views (the server's lists; the page offers them). */
export const FEED_CHOICES = [
  'countries',
  'country-history',
  'watchlist-countries',
  'alerts',
] as const;
export const EMBED_VIEW_CHOICES = ['map', 'index', 'country', 'watchlist'] as const;
