import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  char,
  date,
  doublePrecision,
  index,
  integer,
  json,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { Categories } from '../../shared/schemas/category.js';
import type { GlobalSummary } from '../../shared/schemas/global.js';

/*
 * The history store's tables. SQL lives only under src/server/store; migrations are generated
 * from this file with drizzle-kit (`npm run db:generate`) and committed under ./migrations.
 *
 * Categories are a JSONB column of `country_rows`, not a child table: every query that reads
 * them (a country's history, the comparison of two batches) reads all ten of one row at once and
 * compares them in code; none filters or aggregates one category across rows in SQL. One row
 * per country and batch (175 a batch, not 1,925) keeps recording a batch and reading a series to
 * one index range each, and an upstream that adds a category needs no migration.
 */

/** A timestamp with time zone, read as a Date (every table's time columns). */
export const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** One row per upstream batch (`as_of`), whatever the source of its country rows. */
export const batches = pgTable(
  'batches',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    asOf: at('as_of').notNull(),
    methodologyVersion: text('methodology_version'),
    /** The upstream's global summary as received (fields beyond the known ones kept). */
    global: jsonb('global').$type<GlobalSummary>(),
    globalIndex: doublePrecision('global_index'),
    globalStatic: doublePrecision('global_static'),
    globalActive: doublePrecision('global_active'),
    events24h: integer('events_24h'),
    globalTier: text('global_tier'),
    tierCounts: jsonb('tier_counts').$type<Record<string, number>>(),
    /** Country rows recorded for this batch (0 for a global-only point from `feed_history`). */
    countryCount: integer('country_count').notNull(),
    /** export_json | export_csv | hotspots | demo_seed | feed_history */
    source: text('source').notNull(),
    demo: boolean('demo').notNull().default(false),
    recordedAt: at('recorded_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('batches_as_of_key').on(t.asOf)],
);

/** Every country of a recorded batch: its scores and its categories. */
export const countryRows = pgTable(
  'country_rows',
  {
    batchId: bigint('batch_id', { mode: 'number' })
      .notNull()
      .references(() => batches.id, { onDelete: 'cascade' }),
    /** Copied from the batch so a country's series is one index range, no join to sort. */
    asOf: at('as_of').notNull(),
    iso: char('iso', { length: 3 }).notNull(),
    name: text('name'),
    risk: doublePrecision('risk'),
    tier: text('tier'),
    static: doublePrecision('static'),
    active: doublePrecision('active'),
    deltaActive: doublePrecision('delta_active'),
    deltaHeadline: doublePrecision('delta_headline'),
    confidence: doublePrecision('confidence'),
    profile: text('profile'),
    threatVectors: jsonb('threat_vectors').$type<string[]>(),
    sourceCount: integer('source_count'),
    /** Null when the batch was recorded from the hotspot list (no categories there). */
    categories: jsonb('categories').$type<Categories>(),
  },
  (t) => [
    primaryKey({ columns: [t.batchId, t.iso] }),
    index('country_rows_iso_as_of').on(t.iso, t.asOf),
  ],
);

/** The event archive: every event the BFF received, once per country it was received for. */
export const events = pgTable(
  'events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    iso: char('iso', { length: 3 }).notNull(),
    ts: at('ts').notNull(),
    /** UTC day of `ts`: "same headline and source within a day" is one archived event. */
    day: date('day', { mode: 'string' }).notNull(),
    headline: text('headline').notNull(),
    url: text('url'),
    source: text('source'),
    role: text('role'),
    breaking: boolean('breaking'),
    /** The event as received (fields beyond the known ones kept). */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    firstSeen: at('first_seen').notNull(),
  },
  (t) => [
    uniqueIndex('events_iso_url_ts_key')
      .on(t.iso, t.url, t.ts)
      .where(sql`${t.url} is not null`),
    uniqueIndex('events_iso_headline_source_day_key').on(
      t.iso,
      sql`lower(${t.headline})`,
      sql`coalesce(${t.source}, '')`,
      t.day,
    ),
    index('events_ts_id').on(t.ts.desc(), t.id.desc()),
    index('events_iso_ts_id').on(t.iso, t.ts.desc(), t.id.desc()),
  ],
);

/*
 * ---- Per-country monthly series (issue 7 performance) ----
 *
 * `country_rows` is written batch by batch, so one country's two years (1,460 rows) sit on 1,460
 * different pages and a cold read of its history costs 1,460 page reads. Once a month is over
 * (a batch of a later month has been recorded), each country's points of that month are copied
 * into one `country_months` row, already in the history API's point shape (a JSON array, TOAST-
 * compressed): a country's history is then ~24 block rows plus the open month's rows. The blocks
 * are derived data: `country_rows` stays the record (the comparison of two batches reads it), a
 * block can always be rebuilt from it, and `sealed_months` says which months have their blocks
 * (a month without blocks is read from `country_rows`).
 */

/** One country's points of one sealed UTC month, oldest first. */
export const countryMonths = pgTable(
  'country_months',
  {
    iso: char('iso', { length: 3 }).notNull(),
    /** First day of the UTC month. */
    month: date('month', { mode: 'string' }).notNull(),
    /** `[{as_of, name, risk, tier, static, active, confidence, categories}]`, as_of in ISO form. */
    points: json('points').$type<MonthPoint[]>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.iso, t.month] })],
);

/** Months whose blocks are in `country_months` (every country of the month at once). */
export const sealedMonths = pgTable('sealed_months', {
  month: date('month', { mode: 'string' }).primaryKey(),
});

/** A point of a country's series as stored in a block (the API's point shape, and the name). */
export interface MonthPoint {
  as_of: string;
  name: string | null;
  risk: number | null;
  tier: string | null;
  static: number | null;
  active: number | null;
  confidence: number | null;
  categories: Categories | null;
}

export const schema = { batches, countryRows, events, countryMonths, sealedMonths };
