import { bigint, bigserial, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import type { Disposition } from '../../shared/alert-triage-api.js';
import { alerts } from './alerts-schema.js';
import { at } from './schema.js';

/*
 * Alerts a team works through (issue 21): the team's acknowledgement of each alert (with every
 * earlier one kept) and each person's read state. drizzle.config.ts lists this file.
 */

/** The team's current acknowledgement of an alert: one row per alert at most (its key). */
export const alertAcks = pgTable('alert_acks', {
  alertId: bigint('alert_id', { mode: 'number' })
    .primaryKey()
    .references(() => alerts.id, { onDelete: 'cascade' }),
  disposition: text('disposition').$type<Disposition>().notNull(),
  note: text('note'),
  byName: text('by_name').notNull(),
  /** The person (`oidc:<sub>`, the proxy's user); null for a token acting for the team. */
  bySubject: text('by_subject'),
  at: at('at').notNull(),
  /** 1, 2, …: changes are made against the revision the person saw (compare-and-set). */
  revision: integer('revision').notNull(),
});

/** Every acknowledgement ever given, the current one included: the alert's history. */
export const alertAckHistory = pgTable(
  'alert_ack_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    alertId: bigint('alert_id', { mode: 'number' })
      .notNull()
      .references(() => alerts.id, { onDelete: 'cascade' }),
    revision: integer('revision').notNull(),
    disposition: text('disposition').$type<Disposition>().notNull(),
    note: text('note'),
    byName: text('by_name').notNull(),
    bySubject: text('by_subject'),
    at: at('at').notNull(),
  },
  (t) => [index('alert_ack_history_alert').on(t.alertId, t.revision)],
);

/**
 * A signed-in person's read state: every alert with an id up to `readThrough` is read ("mark all
 * read" moves it, so that answer writes one row whatever the inbox holds), plus single alerts
 * above it in `alertReads`. Token holders share the alert's own `read_at` (one read state).
 */
export const readerMarks = pgTable('reader_marks', {
  reader: text('reader').primaryKey(),
  readThrough: bigint('read_through', { mode: 'number' }).notNull(),
  markedAt: at('marked_at').notNull(),
});

export const alertReads = pgTable(
  'alert_reads',
  {
    alertId: bigint('alert_id', { mode: 'number' })
      .notNull()
      .references(() => alerts.id, { onDelete: 'cascade' }),
    reader: text('reader').notNull(),
    readAt: at('read_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.reader, t.alertId] })],
);

export const triageSchema = { alertAcks, alertAckHistory, readerMarks, alertReads };
