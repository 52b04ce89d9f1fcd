import {
  bigint,
  bigserial,
  boolean,
  char,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { NearbyCountry, PlacedBy, SiteKind } from '../../shared/sites-api.js';
import { watchlists } from './alerts-schema.js';
import { at, batches } from './schema.js';

/*
 * Our own sites (issue 20): offices, plants, trips. Generated into migrations with the other
 * tables (drizzle.config.ts lists this file). Sites are the team's: there is no owner column.
 */

export const sites = pgTable(
  'sites',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The organisation's own id: re-importing a file matches on it and never duplicates a site. */
    ref: text('ref').notNull(),
    name: text('name').notNull(),
    kind: text('kind').$type<SiteKind>().notNull(),
    lat: doublePrecision('lat').notNull(),
    lng: doublePrecision('lng').notNull(),
    iso: char('iso', { length: 3 }).notNull(),
    placedBy: text('placed_by').$type<PlacedBy>().notNull(),
    people: integer('people'),
    value: doublePrecision('value'),
    currency: text('currency'),
    tags: jsonb('tags').$type<string[]>().notNull(),
    tripFrom: date('trip_from', { mode: 'string' }),
    tripTo: date('trip_to', { mode: 'string' }),
    /**
     * Countries within 300 km, nearest first, computed once when the site's position is written
     * (never per batch): the site rule and the site page read them as they are.
     */
    nearby: jsonb('nearby').$type<NearbyCountry[]>().notNull(),
    /** The site rule (shared/sites-api.ts siteAlertSchema): on by default, 100 km, 10 points. */
    alertOn: boolean('alert_on').notNull().default(true),
    alertRadiusKm: integer('alert_radius_km').notNull().default(100),
    alertMinDelta: doublePrecision('alert_min_delta').notNull().default(10),
    version: integer('version').notNull().default(1),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('sites_ref_key').on(t.ref), index('sites_iso').on(t.iso)],
);

/**
 * One row: a number every write of sites raises in its own transaction, so any process (a
 * replica too) knows with one tiny read whether the sites it holds in memory are still current.
 */
export const sitesRevision = pgTable('sites_revision', {
  id: integer('id').primaryKey(),
  revision: bigint('revision', { mode: 'number' }).notNull(),
});

/**
 * Batches the site rule has evaluated: "once per batch" across restarts and processes. The row is
 * inserted in the same transaction as the batch's site alerts and their deliveries, so whoever
 * inserts it first writes them and anyone after finds it there and writes nothing.
 */
export const siteAlertEvaluations = pgTable('site_alert_evaluations', {
  batchId: bigint('batch_id', { mode: 'number' })
    .primaryKey()
    .references(() => batches.id, { onDelete: 'cascade' }),
  alerts: integer('alerts').notNull(),
  evaluatedAt: at('evaluated_at').notNull().defaultNow(),
});

/**
 * One row: the team list "Our sites" that holds the site alerts (the inbox) and whose webhook and
 * e-mail they go to. Made by the first site alert; deleting the list deletes this row with it.
 */
export const siteAlertTarget = pgTable('site_alert_target', {
  id: integer('id').primaryKey(),
  watchlistId: bigint('watchlist_id', { mode: 'number' })
    .notNull()
    .references(() => watchlists.id, { onDelete: 'cascade' }),
});
