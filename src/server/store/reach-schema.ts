import { bigint, bigserial, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';

/*
 * Reach (issue 34): feed tokens for spreadsheets and BI tools, and embeds for other sites. Both
 * keep only the SHA-256 of their secret (shown once), so the tables cannot be used as tokens, and
 * both are read from the store on every use: a revocation counts on every replica at once.
 * Times are epoch milliseconds of the application's clock.
 */

/** A token that reads the named feeds only (`feeds`: their names, comma-separated). */
export const feedTokens = pgTable(
  'feed_tokens',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    name: text('name').notNull(),
    feeds: text('feeds').notNull(),
    secretHash: text('secret_hash').notNull(),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    createdBy: text('created_by').notNull(),
    expiresAt: bigint('expires_at', { mode: 'number' }).notNull(),
    revokedAt: bigint('revoked_at', { mode: 'number' }),
    lastUsedAt: bigint('last_used_at', { mode: 'number' }),
    uses: bigint('uses', { mode: 'number' }).notNull().default(0),
  },
  (table) => [uniqueIndex('feed_tokens_secret_hash').on(table.secretHash)],
);

/**
 * One view for one site: `view` (map, index, country, watchlist) and its `subject` (an ISO code,
 * a watchlist id, or ''), framed only by `origin`; `uses` counts every page served.
 */
export const embeds = pgTable(
  'embeds',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    name: text('name').notNull(),
    view: text('view').notNull(),
    subject: text('subject').notNull(),
    origin: text('origin').notNull(),
    secretHash: text('secret_hash').notNull(),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    createdBy: text('created_by').notNull(),
    expiresAt: bigint('expires_at', { mode: 'number' }).notNull(),
    revokedAt: bigint('revoked_at', { mode: 'number' }),
    lastUsedAt: bigint('last_used_at', { mode: 'number' }),
    uses: bigint('uses', { mode: 'number' }).notNull().default(0),
  },
  (table) => [uniqueIndex('embeds_secret_hash').on(table.secretHash)],
);
