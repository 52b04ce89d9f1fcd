import {
  bigint,
  bigserial,
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
import { at } from './schema.js';

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
