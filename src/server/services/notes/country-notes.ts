import {
  NOTE_REVISIONS_MAX,
  NOTE_SEARCH_MAX,
  NOTES_PER_COUNTRY_MAX,
  NOTES_TOTAL_MAX,
  noteInputSchema,
  type CountryNote,
} from '../../../shared/notes-api.js';
import type { Database } from '../../store/connection.js';
import {
  insertNote,
  reviseNote,
  searchNotes,
  selectNote,
  selectNoteRevisions,
  selectNotes,
  selectNotesAsOf,
  type NoteRefusal,
  type NoteRevisionRow,
  type NoteRow,
} from '../../store/notes.js';
import { ApiProblem, editConflict, requireVersion, zodWords } from '../api-problem.js';
import { BadRequest, NotFound } from '../../refusals.js';

const LIMITS = {
  perCountry: NOTES_PER_COUNTRY_MAX,
  total: NOTES_TOTAL_MAX,
  revisions: NOTE_REVISIONS_MAX,
};
const SEARCH_WORDS_MAX = 100;

export const noteEtag = (row: { version: number }): string => `"${row.version}"`;

export function noteView(row: NoteRow): CountryNote {
  return {
    id: String(row.id),
    iso: row.iso,
    text: row.text,
    author: row.author,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    version: row.version,
  };
}

export const revisionView = (row: NoteRevisionRow) => ({
  revision: row.revision,
  text: row.text,
  author: row.author,
  at: row.at.toISOString(),
});

function refused(outcome: NoteRefusal, iso: string): ApiProblem {
  switch (outcome) {
    case 'country-full':
      return new ApiProblem(
        409,
        `${iso} already has ${NOTES_PER_COUNTRY_MAX} notes, the most a country may have: delete one before writing another`,
      );
    case 'total-full':
      return new ApiProblem(
        409,
        `There are already ${NOTES_TOTAL_MAX} notes, the most there may be: delete one before writing another`,
      );
    case 'revisions-full':
      return new ApiProblem(
        409,
        `This note has been edited ${NOTE_REVISIONS_MAX - 1} times, the most a note may be: write a new note instead`,
      );
    case 'stale':
      return editConflict('note');
  }
}

/**
 * Country notes (issue 31): plain text on a country, every revision kept (so a view as of a past
 * time shows them as they were), within the limits of `shared/notes-api.ts`. Countries are
 * checked against the ISO 3166 list by the caller's `knownIso`.
 */
export class CountryNotes {
  constructor(
    private readonly db: Database,
    private readonly deps: { now: () => number; knownIso: (iso: string) => boolean },
  ) {}

  #country(iso: string): string {
    if (!this.deps.knownIso(iso)) {
      throw new BadRequest(`iso ${iso} is not an ISO 3166-1 country code this dashboard knows`);
    }
    return iso;
  }

  #text(body: unknown): string {
    const parsed = noteInputSchema.safeParse(body);
    if (!parsed.success)
      throw new BadRequest(zodWords(parsed.error, 'the body must be {"text": "…"}'));
    return parsed.data.text.trim();
  }

  async list(iso: string, asOf: Date | null): Promise<NoteRow[]> {
    this.#country(iso);
    return asOf === null
      ? selectNotes(this.db, iso, NOTES_PER_COUNTRY_MAX)
      : selectNotesAsOf(this.db, iso, asOf, NOTES_PER_COUNTRY_MAX);
  }

  /** The notes as a spreadsheet cell lists them: "text (author, time)", newest first. */
  async lines(iso: string, at: Date | null): Promise<string[]> {
    if (!this.deps.knownIso(iso)) return [];
    const rows = await this.list(iso, at);
    return rows.map((row) => `${row.text} (${row.author}, ${row.updatedAt.toISOString()})`);
  }

  async one(iso: string, rawId: string): Promise<{ row: NoteRow; revisions: NoteRevisionRow[] }> {
    const row = await this.#live(iso, rawId);
    return { row, revisions: await selectNoteRevisions(this.db, row.id) };
  }

  async search(words: string): Promise<NoteRow[]> {
    const trimmed = words.trim();
    if (trimmed === '' || trimmed.length > SEARCH_WORDS_MAX) {
      throw new BadRequest(`q must have 1 to ${SEARCH_WORDS_MAX} characters`);
    }
    return searchNotes(this.db, trimmed, NOTE_SEARCH_MAX);
  }

  async create(iso: string, body: unknown, author: string): Promise<NoteRow> {
    const text = this.#text(body);
    const at = new Date(this.deps.now());
    const outcome = await insertNote(
      this.db,
      { iso: this.#country(iso), text, author, at },
      LIMITS,
    );
    if (typeof outcome === 'string') throw refused(outcome, iso);
    return outcome;
  }

  async update(
    iso: string,
    rawId: string,
    ifMatch: string | undefined,
    body: unknown,
    author: string,
  ): Promise<NoteRow> {
    const current = await this.#live(iso, rawId);
    const version = requireVersion(ifMatch, current.version, 'note');
    const text = this.#text(body);
    return this.#revise(iso, { id: current.id, version, text, author });
  }

  async remove(iso: string, rawId: string, ifMatch: string | undefined, author: string) {
    const current = await this.#live(iso, rawId);
    const version = requireVersion(ifMatch, current.version, 'note');
    return this.#revise(iso, { id: current.id, version, text: null, author });
  }

  async #revise(
    iso: string,
    change: { id: number; version: number; text: string | null; author: string },
  ): Promise<NoteRow> {
    const at = new Date(this.deps.now());
    const outcome = await reviseNote(this.db, { ...change, at }, LIMITS);
    if (typeof outcome === 'string') throw refused(outcome, iso);
    return outcome;
  }

  async #live(iso: string, rawId: string): Promise<NoteRow> {
    this.#country(iso);
    const id = /^\d{1,15}$/.test(rawId) ? Number(rawId) : null;
    if (id === null) throw new BadRequest('id must be a note id as /api/notes/:iso lists it');
    const row = await selectNote(this.db, id);
    if (!row || row.iso !== iso || row.deletedAt !== null) {
      throw new NotFound(`${iso} has no note ${id} (never written, or deleted)`);
    }
    return row;
  }
}
