import { z } from 'zod/mini';
import { userTextProblem } from './user-text.js';

/**
 * Country notes (issue 31): `/api/notes*`. Plain text an editor writes on a country, with its
 * author and time; every edit and the deletion are kept as revisions, so a view as of a past
 * batch shows the notes as they were then. Times are ISO 8601 UTC.
 */

/** A note's text, in characters (line breaks allowed; no control or bidi characters). */
export const NOTE_TEXT_MAX = 2_000;
/** Live (not deleted) notes on one country. */
export const NOTES_PER_COUNTRY_MAX = 100;
/** Live notes in all. */
export const NOTES_TOTAL_MAX = 10_000;
/** Revisions of one note (its first text, each edit and its deletion). */
export const NOTE_REVISIONS_MAX = 50;
/** Notes a search answers at most. */
export const NOTE_SEARCH_MAX = 50;

export const noteInputSchema = z.strictObject({
  text: z.string({ error: 'text must be a string' }).check(
    z.superRefine((text, ctx) => {
      const problem = userTextProblem('text', text.replace(/\r?\n|\t/g, ' '));
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
      if (text.trim() === '') ctx.addIssue({ code: 'custom', message: 'text must not be empty' });
      if (text.length > NOTE_TEXT_MAX) {
        ctx.addIssue({
          code: 'custom',
          message: `text may have at most ${NOTE_TEXT_MAX} characters (got ${text.length})`,
        });
      }
    }),
  ),
});
export type NoteInput = z.infer<typeof noteInputSchema>;

export const noteSchema = z.looseObject({
  id: z.string(),
  iso: z.string(),
  text: z.string(),
  author: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  /** The ETag without quotes: one more at every edit. */
  version: z.int(),
});
export type CountryNote = z.infer<typeof noteSchema>;

export const noteRevisionSchema = z.looseObject({
  revision: z.int(),
  /** null: the note was deleted by this revision. */
  text: z.nullable(z.string()),
  author: z.string(),
  at: z.string(),
});

export const noteListResponseSchema = z.looseObject({
  ok: z.literal(true),
  iso: z.string(),
  /** The time the notes are shown as of (null: now). */
  as_of: z.nullable(z.string()),
  notes: z.array(noteSchema),
});
export type NoteListResponse = z.infer<typeof noteListResponseSchema>;

export const noteResponseSchema = z.looseObject({
  ok: z.literal(true),
  note: noteSchema,
  revisions: z.array(noteRevisionSchema),
});

/** The answer to a POST or PUT: the note as stored (its ETag in the header). */
export const noteWrittenSchema = z.looseObject({ ok: z.literal(true), note: noteSchema });

export const noteSearchResponseSchema = z.looseObject({
  ok: z.literal(true),
  notes: z.array(noteSchema),
});
