import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DAY_MS } from '../../shared/durations.js';
import { ApiProblem } from '../services/api-problem.js';
import { auditCsv, auditFileName } from '../services/exports/audit-csv.js';
import type { AuditLog } from '../services/identity/audit.js';
import type { AuditFilter, StoredAuditRow } from '../store/audit.js';
import { BadRequest, parseTime } from './params.js';
import { optional, queryOf, rule, shown, zodRoute } from './route-schema.js';
import { sheetOutputs } from './sheet-language.js';

/** Entries on one page of `/api/audit` at most (and by default). */
export const AUDIT_PAGE_MAX = 500;
const AUDIT_PAGE_DEFAULT = 100;
/** Rows in one audit CSV at most (the newest that match): narrow the filters for older ones. */
export const AUDIT_CSV_MAX_ROWS = 10_000;
const TEXT_MAX = 200;

const filters = {
  who: optional,
  action: optional,
  object: optional,
  since: optional,
  until: optional,
};

function text(name: string, raw: string | undefined): string | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  if (raw.length > TEXT_MAX)
    throw new BadRequest(`${name} may have at most ${TEXT_MAX} characters`);
  return raw.trim();
}

function readFilter(query: Partial<Record<keyof typeof filters, string>>): AuditFilter {
  const since = parseTime('since', query.since)?.getTime();
  // A day alone (the page's date field) means up to the end of that day, UTC.
  const untilDay = query.until !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(query.until.trim());
  const until = parseTime('until', query.until?.trim())?.getTime();
  const untilEnd = until !== undefined && untilDay ? until + DAY_MS - 1 : until;
  if (since !== undefined && untilEnd !== undefined && since > untilEnd) {
    throw new BadRequest('since is after until');
  }
  return {
    who: text('who', query.who),
    action: text('action', query.action),
    object: text('object', query.object),
    since,
    until: untilEnd,
  };
}

/** `?cursor=` is the previous page's `next_cursor`: `<time ms>-<id>` of its last entry. */
function readCursor(raw: string | undefined): AuditFilter['before'] {
  if (raw === undefined) return undefined;
  const match = /^(\d{1,15})-(\d{1,15})$/.exec(raw);
  if (!match)
    throw new BadRequest(`cursor must be a next_cursor /api/audit gave (got ${shown(raw)})`);
  return { at: Number(match[1]), id: Number(match[2]) };
}

function readLimit(raw: string | undefined): number {
  if (raw === undefined) return AUDIT_PAGE_DEFAULT;
  const limit = /^\d{1,4}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(limit >= 1 && limit <= AUDIT_PAGE_MAX)) {
    throw new BadRequest(
      `limit must be a whole number from 1 to ${AUDIT_PAGE_MAX} (got ${shown(raw)})`,
    );
  }
  return limit;
}

const pageQuery = queryOf({ ...filters, cursor: optional, limit: optional }).transform(
  rule((query: Record<string, string | undefined>) => ({
    filter: { ...readFilter(query), before: readCursor(query.cursor) },
    limit: readLimit(query.limit),
  })),
);
/** The spreadsheet: the same filters, and its header row's `lang` (issue 34). */
const csvQuery = queryOf({ ...filters, lang: optional }).transform(
  rule(({ lang, ...rest }: Partial<Record<keyof typeof filters | 'lang', string>>) => ({
    filter: readFilter(rest),
    lang: lang ?? null,
  })),
);

function entryView(row: StoredAuditRow) {
  return {
    id: String(row.id),
    at: new Date(row.at).toISOString(),
    who: {
      name: row.actorName,
      email: row.actorEmail,
      subject: row.actorSubject,
      via: row.actorVia,
      role: row.actorRole,
    },
    address: row.address,
    action: row.action,
    object: row.object,
    status: row.status,
    detail: row.detail,
    before: row.before,
    after: row.after,
  };
}

const admin = { config: { role: 'admin' as const } };

/**
 * `GET /api/audit` (a page of the audit log, newest first, filtered) and
 * `GET /api/spreadsheet/audit.csv` (the same filters as a spreadsheet): admins only. There is
 * no route that changes or deletes an entry.
 */
export async function auditRoutes(
  app: FastifyInstance,
  opts: {
    audit: AuditLog | null;
    now: () => number;
    /** The asking person's saved language (issue 34), for the header row; null: none. */
    settingLanguageOf?: ((request: FastifyRequest) => Promise<string | null>) | null;
  },
): Promise<void> {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const log = (): AuditLog => {
    if (opts.audit === null) {
      throw new ApiProblem(409, 'The audit log needs the store (DATA_DIR or DATABASE_URL)');
    }
    return opts.audit;
  };
  const noStore = (reply: FastifyReply): FastifyReply => reply.header('cache-control', 'no-store');

  typed.get(
    '/api/audit',
    { ...zodRoute({ querystring: pageQuery }), ...admin },
    async (request, reply) => {
      const { filter, limit } = request.query;
      // One more than asked says whether there is a next page.
      const rows = await log().query(filter, limit + 1);
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      noStore(reply);
      return {
        ok: true,
        entries: page.map(entryView),
        next_cursor: rows.length > limit && last ? `${last.at}-${last.id}` : null,
      };
    },
  );

  typed.get(
    '/api/spreadsheet/audit.csv',
    { ...zodRoute({ querystring: csvQuery }), ...admin },
    async (request, reply) => {
      const { filter, lang } = request.query;
      const o = await sheetOutputs(request, reply, lang, opts.settingLanguageOf);
      const rows = await log().query(filter, AUDIT_CSV_MAX_ROWS);
      return noStore(reply)
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${auditFileName(opts.now())}"`)
        .send(auditCsv(rows, o));
    },
  );
}
