import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SITES_IMPORT_MAX_BYTES } from '../../shared/sites-api.js';
import { sitesCsv, sitesFileName } from '../services/exports/sites-csv.js';
import type { Admission } from '../store-question-limit.js';
import { sendError } from '../reply.js';
import { ApiProblem } from '../services/api-problem.js';
import { recordAudit } from '../services/identity/audit.js';
import { versionEtag } from '../services/alerts/alert-views.js';
import type { ExposureService } from '../services/sites/exposure.js';
import { jsonRows, readCsvRows, type RawRow } from '../services/sites/import-rows.js';
import type { SiteAlertDelivery } from '../services/sites/site-alert-delivery.js';
import {
  filterSites,
  pageOf,
  parseSiteFilters,
  parseSitePage,
} from '../services/sites/site-filters.js';
import type { SiteService } from '../services/sites/site-service.js';
import { SitePoints } from '../services/sites/site-points.js';
import { siteEtag, siteView } from '../services/sites/site-views.js';
import { sendServed } from './respond.js';
import { indexParams, noQuery, parseAsOf, parseIndexChoice } from './params.js';
import type { TeamView } from '../services/team-index/team-view.js';
import { teamLensFor } from './team-reply.js';
import { optional, paramsOf, queryOf, zodRoute } from './route-schema.js';
import type { StoreQueryGuard } from '../store-question-limit.js';
import { guarded as storeGuarded } from './store-reply.js';
import type { Viewer } from '../services/alerts/watchlists.js';
import { sheetOutputs } from './sheet-language.js';

export interface SiteRouteOptions {
  sites: SiteService;
  exposure: ExposureService;
  delivery: SiteAlertDelivery;
  /** The store-query guard and history-question budget of the asking client (as history's). */
  guardFor: (request: FastifyRequest) => StoreQueryGuard;
  admit: (request: FastifyRequest, what?: string) => Promise<Admission>;
  /** Who asks, for their own read state (as the inbox's). */
  viewerOf: (request: FastifyRequest) => Viewer;
  /** The team index's view (issue 31: `/api/exposure?index=team`); null without weights' store. */
  team?: TeamView | null;
  /** The asking person's saved language (issue 34), for the spreadsheet's header row. */
  settingLanguageOf?: ((request: FastifyRequest) => Promise<string | null>) | null;
}

const CSV_TYPES = ['text/csv', 'application/csv', 'text/plain'];
const MB = Math.round(SITES_IMPORT_MAX_BYTES / 1024 / 1024);
const tooLarge = `The file is larger than ${MB} MB, the most one import takes: split it into several files`;

const isStream = (body: unknown): body is AsyncIterable<Buffer | string> =>
  body !== null && typeof body === 'object' && Symbol.asyncIterator in body;

/** The spreadsheet's: the same filters, and its header row's `lang` (issue 34). */
const sheetQuery = queryOf({
  tier: optional,
  country: optional,
  kind: optional,
  tag: optional,
  lang: optional,
});
const listQuery = queryOf({
  tier: optional,
  country: optional,
  kind: optional,
  tag: optional,
  limit: optional,
  cursor: optional,
});
const importQuery = queryOf({ dry_run: optional }).transform((query, ctx) => {
  const raw = query.dry_run;
  if (raw !== undefined && raw !== '0' && raw !== '1') {
    ctx.addIssue({ code: 'custom', message: 'dry_run must be 1 (preview only) or 0' });
    return z.NEVER;
  }
  return { dryRun: raw === '1' };
});
export const exposureQuery = queryOf({
  weight: optional,
  tier: optional,
  country: optional,
  kind: optional,
  tag: optional,
  as_of: optional,
  ...indexParams,
});

/**
 * `/api/sites*`, `/api/spreadsheet/sites.csv` and `/api/exposure`: our own sites (issue 20).
 * Access control and the cross-site guard are the app-wide plugins watchlists use too; answers
 * are `no-store` (sites are sensitive), and no site's contents are ever logged.
 */
export async function siteRoutes(app: FastifyInstance, opts: SiteRouteOptions): Promise<void> {
  importRoute(app, opts);
  recordRoutes(app, opts);
  deliveryRoutes(app, opts);
  readingRoutes(app, opts);
}

const noStore = (reply: FastifyReply): FastifyReply => reply.header('cache-control', 'no-store');
const withId = zodRoute({ querystring: noQuery, params: paramsOf({ id: z.string() }) });
// Sites are the team's: changing them needs an editor (issue 21); reading them, a viewer.
const editor = { config: { role: 'editor' as const } };

/** `POST /api/sites/import`: a CSV or JSON file of sites, admitted as heavy work. */
function importRoute(app: FastifyInstance, opts: SiteRouteOptions): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const { sites } = opts;
  // CSV bodies as the request's stream: readCsvRows parses them as they arrive, each limit
  // applied while reading (issue 29), and only once the import's turn has come.
  app.addContentTypeParser(CSV_TYPES, (_request, payload, done) => done(null, payload));

  typed.post(
    '/api/sites/import',
    {
      ...zodRoute({ querystring: importQuery }),
      ...editor,
      // JSON imports are read whole (Fastify's parser) up to this; CSV ones count their bytes.
      bodyLimit: SITES_IMPORT_MAX_BYTES,
      // Refused before a byte of a too-large body is read, in words (a body sent without a
      // length is cut off at the same limit by Fastify).
      onRequest: async (request, reply) => {
        const length = Number(request.headers['content-length'] ?? 0);
        if (length > SITES_IMPORT_MAX_BYTES) return sendError(reply, 413, tooLarge);
      },
      errorHandler: (
        error: { code?: string; statusCode?: number; message: string },
        _request,
        reply,
      ) => {
        if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return sendError(reply, 413, tooLarge);
        if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
          return sendError(
            reply,
            415,
            'Send the sites as text/csv (a CSV file) or application/json (an array)',
          );
        }
        throw error;
      },
    },
    async (request, reply) => {
      noStore(reply);
      // A dry run only previews: nothing is written, so the audit log has nothing to record.
      if (request.query.dryRun) recordAudit(request, { trial: true });
      const type = (request.headers['content-type'] ?? '').toLowerCase();
      const charset = /charset=\s*"?([^";\s]+)/.exec(type)?.[1];
      if (charset && charset !== 'utf-8' && charset !== 'utf8') {
        throw new ApiProblem(
          415,
          `The file must be UTF-8 text (charset=${charset.slice(0, 20)} was sent): save it as "CSV UTF-8"`,
        );
      }
      // An import is heavy work: admitted under its client's budget like a history question,
      // before a byte of a CSV body is parsed; charged by the bytes it read.
      let admitted: Admission | null = null;
      let bytes = 0;
      try {
        admitted = await opts.admit(request, 'site imports');
        const body = request.body;
        let raw: RawRow[];
        if (isStream(body)) {
          ({ rows: raw, bytes } = await readCsvRows(body, SITES_IMPORT_MAX_BYTES));
        } else {
          raw = jsonRows(body);
        }
        return await sites.import(raw, request.query.dryRun);
      } catch (error) {
        // A refused file may still be arriving: its connection is closed after the answer
        // rather than read to its end.
        if (error instanceof ApiProblem && error.status === 413)
          reply.header('connection', 'close');
        throw error;
      } finally {
        admitted?.done(bytes);
      }
    },
  );
}

/** One site at a time, the list and the map's points. */
function recordRoutes(app: FastifyInstance, opts: SiteRouteOptions): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const { sites } = opts;
  // One new site, typed in: checked and placed as an import row is; a taken ref is a 409.
  typed.post(
    '/api/sites',
    { ...zodRoute({ querystring: noQuery }), ...editor },
    async (request, reply) => {
      const row = await sites.create(request.body);
      const latest = await sites.batches.at(null);
      noStore(reply).code(201).header('etag', siteEtag(row));
      return { ok: true, site: siteView(row, latest?.byIso.get(row.iso)) };
    },
  );

  typed.get('/api/sites', zodRoute({ querystring: listQuery }), async (request, reply) => {
    const { limit, cursor, ...filterParams } = request.query;
    const filters = parseSiteFilters(filterParams);
    const page = parseSitePage({ limit, cursor });
    const [{ rows }, latest] = await Promise.all([sites.all(), sites.batches.at(null)]);
    const kept = filterSites(rows, filters, latest?.byIso);
    // Bounded answers: a page of at most SITES_PAGE_MAX sites by id (rows come sorted by id).
    const { items, next } = pageOf(kept, page);
    noStore(reply);
    return {
      ok: true,
      as_of: latest?.batch.asOf.toISOString() ?? null,
      total: rows.length,
      matched: kept.length,
      sites: items.map((row) => siteView(row, latest?.byIso.get(row.iso))),
      next_cursor: next,
    };
  });

  // The map's copy of every site: six columns, one body per sites revision and batch, 304 on
  // a matching If-None-Match.
  const points = new SitePoints(sites);
  typed.get('/api/sites/points', zodRoute({ querystring: noQuery }), async (request, reply) =>
    sendServed(request, reply, await points.served()),
  );

  typed.get('/api/sites/:id', withId, async (request, reply) => {
    const row = await sites.row(request.params.id);
    const latest = await sites.batches.at(null);
    noStore(reply).header('etag', siteEtag(row));
    return { ok: true, site: siteView(row, latest?.byIso.get(row.iso)) };
  });

  typed.put('/api/sites/:id', { ...withId, ...editor }, async (request, reply) => {
    const row = await sites.update(request.params.id, request.headers['if-match'], request.body);
    const latest = await sites.batches.at(null);
    noStore(reply).header('etag', siteEtag(row));
    return { ok: true, site: siteView(row, latest?.byIso.get(row.iso)) };
  });

  typed.delete('/api/sites/:id', { ...withId, ...editor }, async (request, reply) => {
    await sites.remove(request.params.id, request.headers['if-match']);
    noStore(reply);
    return { ok: true };
  });
}

/** Where site alerts go besides the inbox: the "Our sites" list's webhook and e-mail. */
function deliveryRoutes(app: FastifyInstance, opts: SiteRouteOptions): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  // Where site alerts go besides the inbox: the "Our sites" list's webhook and e-mail.
  typed.get(
    '/api/sites/alert-delivery',
    zodRoute({ querystring: noQuery }),
    async (request, reply) => {
      const row = await opts.delivery.row();
      noStore(reply).header('etag', versionEtag(row));
      return { ok: true, watchlist: await opts.delivery.view(row, opts.viewerOf(request)) };
    },
  );

  typed.put(
    '/api/sites/alert-delivery',
    { ...zodRoute({ querystring: noQuery }), ...editor },
    async (request, reply) => {
      const { row, secret } = await opts.delivery.update(request.headers['if-match'], request.body);
      noStore(reply).header('etag', versionEtag(row));
      const watchlist = await opts.delivery.view(row, opts.viewerOf(request));
      return secret ? { ok: true, watchlist, webhook_secret: secret } : { ok: true, watchlist };
    },
  );
}

/** The spreadsheet and the exposure answer: reads over every site. */
function readingRoutes(app: FastifyInstance, opts: SiteRouteOptions): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const { sites } = opts;
  typed.get(
    '/api/spreadsheet/sites.csv',
    zodRoute({ querystring: sheetQuery }),
    async (request, reply) => {
      const { lang, ...filterParams } = request.query;
      const o = await sheetOutputs(request, reply, lang ?? null, opts.settingLanguageOf);
      const filters = parseSiteFilters(filterParams);
      const [{ rows }, latest] = await Promise.all([sites.all(), sites.batches.at(null)]);
      const asOf = latest?.batch.asOf.toISOString() ?? null;
      const batchId = latest ? await opts.exposure.citableId(latest.batch.id) : null;
      const kept = filterSites(rows, filters, latest?.byIso);
      return noStore(reply)
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${sitesFileName(asOf)}"`)
        .send(sitesCsv(kept, latest?.byIso, asOf, batchId, o));
    },
  );

  // A history question like the others (its trend reads every recorded batch): the client's
  // budget first, then the store-query guard around the work; refusals are 429 / 503 in words.
  typed.get('/api/exposure', zodRoute({ querystring: exposureQuery }), async (request, reply) => {
    const { weight, as_of, index, weights, ...rest } = request.query;
    let admitted: Admission | null = null;
    let chars = 0;
    try {
      if (weight !== undefined && weight !== 'people' && weight !== 'value') {
        throw new ApiProblem(400, 'weight must be "people" (the default) or "value"');
      }
      const filters = parseSiteFilters(rest);
      const asOf = parseAsOf(as_of);
      const choice = parseIndexChoice({ index, weights });
      // By our tier (the team index's band or our override) at the batch shown (issue 31).
      const lens =
        choice.index === 'team' ? teamLensFor(opts.team, asOf, choice.weights) : undefined;
      admitted = await opts.admit(request);
      const answer = await storeGuarded(opts.guardFor(request), () =>
        opts.exposure.answer(filters, weight ?? 'people', asOf, lens),
      );
      const body = JSON.stringify(answer);
      chars = body.length;
      return noStore(reply).type('application/json; charset=utf-8').send(body);
    } finally {
      admitted?.done(chars);
    }
  });
}
