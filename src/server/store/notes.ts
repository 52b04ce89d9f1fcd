import { and, count, desc, eq, ilike, isNull, sql } from 'drizzle-orm';
import { rowsOf, type Database } from './connection.js';
import { countryNoteRevisions, countryNotes } from './method-notes-schema.js';

export type NoteRow = typeof countryNotes.$inferSelect;
export type NoteRevisionRow = typeof countryNoteRevisions.$inferSelect;

// One lock for every note write that checks a limit: two writers never both pass the last place.
const NOTES_LOCK = 310_031;

export interface NoteLimits {
  perCountry: number;
  total: number;
  revisions: number;
}

/** Live notes of a country, the most recently written first, at most `limit`. */
export async function selectNotes(db: Database, iso: string, limit: number): Promise<NoteRow[]> {
  return db
    .select()
    .from(countryNotes)
    .where(and(eq(countryNotes.iso, iso), isNull(countryNotes.deletedAt)))
    .orderBy(desc(countryNotes.updatedAt), desc(countryNotes.id))
    .limit(limit);
}

/**
 * A country's notes as they were at `at`: each note's newest revision at or before it, unless
 * that revision deleted it; newest first. The note row gives its id, author of the first text and
 * creation time; text, time and version are the revision's.
 */
export async function selectNotesAsOf(
  db: Database,
  iso: string,
  at: Date,
  limit: number,
): Promise<NoteRow[]> {
  const rows = rowsOf(
    await db.execute(sql`
      select n.id, n.iso, n.created_at, r.text, r.author, r.at, r.revision
      from country_notes n
      join lateral (
        select text, author, at, revision from country_note_revisions
        where note_id = n.id and at <= ${at}
        order by revision desc limit 1
      ) r on true
      where n.iso = ${iso} and r.text is not null
      order by r.at desc, n.id desc limit ${limit}`),
  );
  return rows.map((row) => ({
    id: Number(row.id),
    iso: String(row.iso),
    text: String(row.text),
    author: String(row.author),
    createdAt: new Date(row.created_at as string),
    updatedAt: new Date(row.at as string),
    deletedAt: null,
    version: Number(row.revision),
  }));
}

export async function selectNote(db: Database, id: number): Promise<NoteRow | null> {
  const [row] = await db.select().from(countryNotes).where(eq(countryNotes.id, id));
  return row ?? null;
}

export async function selectNoteRevisions(db: Database, id: number): Promise<NoteRevisionRow[]> {
  return db
    .select()
    .from(countryNoteRevisions)
    .where(eq(countryNoteRevisions.noteId, id))
    .orderBy(countryNoteRevisions.revision);
}

/** Live notes whose text holds `words` (case-insensitive), newest first. */
export async function searchNotes(db: Database, words: string, limit: number): Promise<NoteRow[]> {
  const pattern = `%${words.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return db
    .select()
    .from(countryNotes)
    .where(and(isNull(countryNotes.deletedAt), ilike(countryNotes.text, pattern)))
    .orderBy(desc(countryNotes.updatedAt), desc(countryNotes.id))
    .limit(limit);
}

/** Why a write was not made: a limit reached, or the note changed (or went) meanwhile. */
export type NoteRefusal = 'country-full' | 'total-full' | 'revisions-full' | 'stale';

/** A new note and its first revision, in one transaction, within the limits. */
export async function insertNote(
  db: Database,
  note: { iso: string; text: string; author: string; at: Date },
  limits: NoteLimits,
): Promise<NoteRow | NoteRefusal> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${NOTES_LOCK})`);
    const live = isNull(countryNotes.deletedAt);
    const [all] = await tx.select({ n: count() }).from(countryNotes).where(live);
    if ((all?.n ?? 0) >= limits.total) return 'total-full';
    const [own] = await tx
      .select({ n: count() })
      .from(countryNotes)
      .where(and(live, eq(countryNotes.iso, note.iso)));
    if ((own?.n ?? 0) >= limits.perCountry) return 'country-full';
    const [row] = await tx
      .insert(countryNotes)
      .values({ ...note, createdAt: note.at, updatedAt: note.at })
      .returning();
    if (!row) throw new Error('the note was not written');
    await tx
      .insert(countryNoteRevisions)
      .values({ noteId: row.id, revision: 1, text: note.text, author: note.author, at: note.at });
    return row;
  });
}

/**
 * Replaces a note's text (`text`), or deletes it (`null`), if it is still at `version`: the
 * note and its new revision in one transaction.
 */
export async function reviseNote(
  db: Database,
  change: { id: number; version: number; text: string | null; author: string; at: Date },
  limits: NoteLimits,
): Promise<NoteRow | NoteRefusal> {
  return db.transaction(async (tx) => {
    if (change.text !== null && change.version + 1 > limits.revisions) return 'revisions-full';
    const [row] = await tx
      .update(countryNotes)
      .set({
        ...(change.text === null ? { deletedAt: change.at } : { text: change.text }),
        updatedAt: change.at,
        version: sql`${countryNotes.version} + 1`,
      })
      .where(
        and(
          eq(countryNotes.id, change.id),
          eq(countryNotes.version, change.version),
          isNull(countryNotes.deletedAt),
        ),
      )
      .returning();
    if (!row) return 'stale';
    await tx.insert(countryNoteRevisions).values({
      noteId: row.id,
      revision: row.version,
      text: change.text,
      author: change.author,
      at: change.at,
    });
    return row;
  });
}
