import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  char,
  index,
  integer,
  json,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { at, batches } from './schema.js';

/*
 * Our own view of risk (issue 31): the team index's weights and the overrides of a country's
 * level. drizzle.config.ts lists this file.
 *
 * The team index itself is not stored: it is the weighted mean of the category scores every
 * recorded batch already keeps (`country_rows.categories`, and the month blocks), computed where
 * an answer is built. A weight change therefore "recomputes" every batch at once and no stale
 * copy can exist; what must be kept is each version of the weights with its time, so a view of a
 * past batch can use the weights in force then.
 *
 * What a recompute over the whole history reads is `batch_scores`: the same category scores,
 * one compact row per batch, so two years are 1,460 rows of plain numbers rather than 245,000
 * jsonb documents walked path by path (docs/benchmarks.md, section 13).
 */

/**
 * One batch's category scores of each country: `{"AFG": [s₁, …, s₁₀], …}`, in the categories'
 * documented order (CATEGORY_NAMES), null where the batch had no numeric score. Written from the
 * batch's `country_rows` in the transaction that records them; removed with its batch.
 */
export const batchScores = pgTable('batch_scores', {
  batchId: bigint('batch_id', { mode: 'number' })
    .primaryKey()
    .references(() => batches.id, { onDelete: 'cascade' }),
  scores: json('scores').$type<Record<string, Array<number | null>>>().notNull(),
});

/** Every version of the weights, never changed once written; the newest is in force. */
export const indexWeights = pgTable('index_weights', {
  version: bigserial('version', { mode: 'number' }).primaryKey(),
  name: text('name').notNull(),
  /** `{security: 0–10, …}`: the ten documented categories, each given. */
  weights: jsonb('weights').$type<Record<string, number>>().notNull(),
  setAt: at('set_at').notNull(),
  setBy: text('set_by').notNull(),
});

/**
 * Overrides of a country's level, kept after they end (a view of a past batch shows the ones in
 * force then). One in force per country: the partial unique index.
 */
export const countryOverrides = pgTable(
  'country_overrides',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    iso: char('iso', { length: 3 }).notNull(),
    tier: text('tier').notNull(),
    reason: text('reason').notNull(),
    expiresAt: at('expires_at').notNull(),
    setAt: at('set_at').notNull(),
    setBy: text('set_by').notNull(),
    /** 1 when set, +1 for each change (the ETag an edit must name). */
    version: integer('version').notNull(),
    /** Null while in force. */
    endedAt: at('ended_at'),
    /** `expired` | `deleted` (by whom is in the audit log). */
    endedHow: text('ended_how'),
  },
  (t) => [
    uniqueIndex('country_overrides_in_force')
      .on(t.iso)
      .where(sql`${t.endedAt} is null`),
    index('country_overrides_expiry')
      .on(t.expiresAt)
      .where(sql`${t.endedAt} is null`),
  ],
);
