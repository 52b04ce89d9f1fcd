import {
  bigint,
  bigserial,
  boolean,
  char,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
} from 'drizzle-orm/pg-core';
import { at, batches } from './schema.js';

/*
 * Issue 31: the provider's method changes (what an admin decided about one) and the team's
 * country notes with every revision kept (so a view as of a past batch shows them as they were).
 */

/**
 * An admin's word on a method change (a batch whose methodology differs from the batch before).
 * No row: the change holds the rules that compare batches. `comparable`: they run after all.
 */
export const methodDecisions = pgTable('method_decisions', {
  batchId: bigint('batch_id', { mode: 'number' })
    .primaryKey()
    .references(() => batches.id, { onDelete: 'cascade' }),
  comparable: boolean('comparable').notNull(),
  decidedBy: text('decided_by').notNull(),
  decidedAt: at('decided_at').notNull(),
  /** When the held rules were evaluated for this change (once), null until then. */
  evaluatedAt: at('evaluated_at'),
});

/** A note on a country: its newest text; `deletedAt` set when deleted (its history is kept). */
export const countryNotes = pgTable(
  'country_notes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    iso: char('iso', { length: 3 }).notNull(),
    text: text('text').notNull(),
    author: text('author').notNull(),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
    deletedAt: at('deleted_at'),
    /** One more at every edit: the ETag, checked by If-Match. */
    version: integer('version').notNull().default(1),
  },
  (t) => [index('country_notes_iso').on(t.iso, t.id.desc())],
);

/** Every revision of a note (the first text, each edit, the deletion with text null). */
export const countryNoteRevisions = pgTable(
  'country_note_revisions',
  {
    noteId: bigint('note_id', { mode: 'number' })
      .notNull()
      .references(() => countryNotes.id, { onDelete: 'cascade' }),
    revision: integer('revision').notNull(),
    text: text('text'),
    author: text('author').notNull(),
    at: at('at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.noteId, t.revision] })],
);

export const methodNotesSchema = { methodDecisions, countryNotes, countryNoteRevisions };
