import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../principal.js';
import {
  noteEtag,
  noteView,
  revisionView,
  type CountryNotes,
} from '../services/notes/country-notes.js';
import { recordAudit } from '../services/identity/audit.js';
import { noQuery, parseIso, parseTime } from './params.js';
import { optional, paramsOf, queryOf, rule, zodRoute } from './route-schema.js';

export interface NoteRouteOptions {
  notes: CountryNotes;
}

const isoParams = paramsOf({ iso: z.string().transform(rule(parseIso)) });
const noteParams = paramsOf({ iso: z.string().transform(rule(parseIso)), id: z.string() });
const listQuery = queryOf({ as_of: optional }).transform(
  rule((query: { as_of?: string }) => ({ asOf: parseTime('as_of', query.as_of) })),
);
const searchQuery = queryOf({ q: optional });
const editor = { config: { role: 'editor' as const } };
const noStore = (reply: FastifyReply): FastifyReply => reply.header('cache-control', 'no-store');

/**
 * `/api/notes` (issue 31): a country's notes (as of a time, from their revisions), one note with
 * its revisions, a search; editors write, edit (If-Match) and delete (If-Match) them.
 */
export async function noteRoutes(app: FastifyInstance, opts: NoteRouteOptions): Promise<void> {
  const { notes } = opts;
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get('/api/notes', zodRoute({ querystring: searchQuery }), async (request, reply) => {
    const rows = await notes.search(request.query.q ?? '');
    noStore(reply);
    return { ok: true, notes: rows.map(noteView) };
  });

  typed.get(
    '/api/notes/:iso',
    zodRoute({ querystring: listQuery, params: isoParams }),
    async (request, reply) => {
      const { iso } = request.params;
      const { asOf } = request.query;
      const rows = await notes.list(iso, asOf);
      noStore(reply);
      return { ok: true, iso, as_of: asOf?.toISOString() ?? null, notes: rows.map(noteView) };
    },
  );

  typed.post(
    '/api/notes/:iso',
    { ...zodRoute({ querystring: noQuery, params: isoParams }), ...editor },
    async (request, reply) => {
      const { iso } = request.params;
      const row = await notes.create(iso, request.body, principalOf(request).name);
      recordAudit(request, {
        action: 'country note written',
        object: `/api/notes/${iso}/${row.id}`,
      });
      noStore(reply).code(201).header('etag', noteEtag(row));
      return { ok: true, note: noteView(row) };
    },
  );

  typed.get(
    '/api/notes/:iso/:id',
    zodRoute({ querystring: noQuery, params: noteParams }),
    async (request, reply) => {
      const { row, revisions } = await notes.one(request.params.iso, request.params.id);
      noStore(reply).header('etag', noteEtag(row));
      return { ok: true, note: noteView(row), revisions: revisions.map(revisionView) };
    },
  );

  typed.put(
    '/api/notes/:iso/:id',
    { ...zodRoute({ querystring: noQuery, params: noteParams }), ...editor },
    async (request, reply) => {
      const { iso, id } = request.params;
      const author = principalOf(request).name;
      const ifMatch = request.headers['if-match'];
      const row = await notes.update(iso, id, ifMatch, request.body, author);
      recordAudit(request, { action: 'country note edited', object: `/api/notes/${iso}/${id}` });
      noStore(reply).header('etag', noteEtag(row));
      return { ok: true, note: noteView(row) };
    },
  );

  typed.delete(
    '/api/notes/:iso/:id',
    { ...zodRoute({ querystring: noQuery, params: noteParams }), ...editor },
    async (request, reply) => {
      const { iso, id } = request.params;
      await notes.remove(iso, id, request.headers['if-match'], principalOf(request).name);
      recordAudit(request, { action: 'country note deleted', object: `/api/notes/${iso}/${id}` });
      noStore(reply);
      return { ok: true };
    },
  );
}
