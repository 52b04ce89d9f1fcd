import { bigint, bigserial, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';

/*
 * Identity (issue 21): API tokens an admin makes for scripts. Sign-in sessions are the sessions
 * table (replicas-schema.ts). Times are epoch milliseconds of the application's clock.
 */

/** Only the SHA-256 of a token's secret is kept: the table's contents cannot be used as tokens. */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    name: text('name').notNull(),
    role: text('role').notNull(),
    secretHash: text('secret_hash').notNull(),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    createdBy: text('created_by').notNull(),
    expiresAt: bigint('expires_at', { mode: 'number' }).notNull(),
    revokedAt: bigint('revoked_at', { mode: 'number' }),
    lastUsedAt: bigint('last_used_at', { mode: 'number' }),
  },
  (table) => [uniqueIndex('api_tokens_secret_hash').on(table.secretHash)],
);
