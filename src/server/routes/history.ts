import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Admission } from '../store-question-limit.js';
import type { MoveExplanations } from '../services/history/explain.js';
import type { HistoryAnswers } from '../services/history/history-answers.js';
import type { StoreQueryGuard } from '../store-question-limit.js';
import {
  changesQuery,
  checkRetention,
  checkSinceRetention,
  eventsQuery,
  eventsCsvQuery,
  countryRangeQuery,
  type EventSearch,
  rangeQuery,
} from './history-params.js';
import { decodeCursor } from '../services/history/history-answers.js';
import {
  collectEvents,
  EVENTS_CSV_PAGE,
  eventsCsv,
  eventsFileName,
} from '../services/exports/events-csv.js';
import { teamChangesJson, teamHistoryJson, teamLensFor } from './team-reply.js';
import type { TeamView } from '../services/team-index/team-view.js';
import { BadRequest, isoParams } from './params.js';
import type { EventQuery } from '../store/history-store.js';
import { sendError } from './respond.js';
import { admittedReply, guarded, reply400, type StoreFile } from './store-reply.js';
import { zodRoute } from './route-schema.js';
import { sheetOutputs } from './sheet-language.js';
import type { Outputs } from '../../shared/i18n/outputs/translate.js';

export interface HistoryRouteOptions {
  answers: HistoryAnswers;
  /** Why a country's score moved between two batches (issue 22). */
  explanations: MoveExplanations;
  /** The oldest time the store still holds under HISTORY_RETENTION_DAYS (null: everything). */
  retentionStart: () => Date | null;
  /** The request's store-query guard: its client's rate and the bound on queries in flight. */
  guardFor: (request: FastifyRequest) => StoreQueryGuard;
  /** Every question's turn under its client's budget and the bounds on answers at once. */
  admit: (request: FastifyRequest) => Promise<Admission>;
  /** The team index's view (issue 31); null without a store. */
  team?: TeamView | null;
  /** A watchlist's countries as the asker may see it (null: no such list for them). */
  watchlistCountries?: (request: FastifyRequest, id: string) => Promise<string[] | null>;
  /** The asking person's saved language (issue 34), for a spreadsheet's header row. */
  settingLanguageOf?: ((request: FastifyRequest) => Promise<string | null>) | null;
}

/** The search's countries, a watchlist read into codes (an unknown one is the asker's 400). */
async function resolvedSearch(
  opts: HistoryRouteOptions,
  request: FastifyRequest,
  search: EventSearch,
): Promise<EventQuery> {
  const { watchlist, ...query } = search;
  if (watchlist === null) return query;
  const isos = opts.watchlistCountries ? await opts.watchlistCountries(request, watchlist) : null;
  if (!isos) throw new BadRequest(`watchlist: there is no watchlist ${watchlist} you can see`);
  return { ...query, isos };
}

/**
 * The BFF's own memory of every batch: none of these spends an upstream request. The schemas
 * check the parameters; the retention window (which moves) is checked per request.
 */
export async function historyRoutes(
  app: FastifyInstance,
  opts: HistoryRouteOptions,
): Promise<void> {
  const { answers, guardFor, admit } = opts;
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get('/api/history/global', zodRoute({ querystring: rangeQuery }), (request, reply) =>
    admittedReply(admit(request), reply, async () => {
      checkRetention(request.query, opts.retentionStart());
      return answers.globalHistoryJson(request.query, guardFor(request));
    }),
  );
  const seriesRoute = zodRoute({ querystring: countryRangeQuery, params: isoParams });
  typed.get('/api/history/country/:iso', seriesRoute, (request, reply) =>
    admittedReply(admit(request), reply, async () => {
      checkRetention(request.query, opts.retentionStart());
      const { iso } = request.params;
      const json = await answers.countryHistoryJson(iso, request.query, guardFor(request));
      const { index, weights } = request.query;
      if (index !== 'team') return json;
      // Recomputed with today's weights over every point unless the weights then are asked for.
      return teamHistoryJson(opts.team, json, weights ?? 'today');
    }),
  );
  typed.get('/api/country/:iso/explain', seriesRoute, (request, reply) =>
    admittedReply(admit(request), reply, async () => {
      checkRetention(request.query, opts.retentionStart());
      const { from, to, index, weights } = request.query;
      // The team view explains the team index's move, with the lens of the newer batch.
      const lens = index === 'team' ? teamLensFor(opts.team, to, weights) : undefined;
      return JSON.stringify(
        await guarded(guardFor(request), () =>
          opts.explanations.explain(request.params.iso, from, to, lens),
        ),
      );
    }),
  );
  app.get('/api/history/country/', (_request, reply) =>
    sendError(reply, 400, 'iso is missing: ask for /api/history/country/<three-letter code>'),
  );
  typed.get('/api/changes', zodRoute({ querystring: changesQuery }), (request, reply) =>
    admittedReply(admit(request), reply, async () => {
      const { since, asked, asOf, index, weights } = request.query;
      checkSinceRetention(since, opts.retentionStart());
      if (asOf) checkRetention({ from: asOf, to: null }, opts.retentionStart());
      const json = await answers.changesJson(since, asked, guardFor(request), asOf);
      if (index !== 'team') return json;
      // The same two batches, their moves in the team index (with the weights of the view).
      return teamChangesJson(opts.team, json, asOf ? (weights ?? 'then') : null);
    }),
  );
  typed.get('/api/events', zodRoute({ querystring: eventsQuery }), (request, reply) =>
    admittedReply(admit(request), reply, async () => {
      checkRetention(request.query, opts.retentionStart());
      const query = await resolvedSearch(opts, request, request.query);
      // The parsed query is the memo key: equivalent spellings share one answer.
      return answers.eventsJson(query, JSON.stringify(query), guardFor(request));
    }),
  );
  typed.get(
    '/api/spreadsheet/events.csv',
    zodRoute({ querystring: eventsCsvQuery }),
    async (request, reply) => {
      const { search, lang } = request.query;
      const o = await sheetOutputs(request, reply, lang, opts.settingLanguageOf);
      return reply400(reply, () => eventsFile(opts, request, search, o), admit(request));
    },
  );
}

/** The search's events as a spreadsheet file (EVENTS_CSV_MAX_ROWS newest at most). */
async function eventsFile(
  opts: HistoryRouteOptions,
  request: FastifyRequest,
  search: EventSearch,
  o: Outputs,
): Promise<StoreFile> {
  checkRetention(search, opts.retentionStart());
  const query = await resolvedSearch(opts, request, search);
  const events = await collectEvents((cursor) => {
    const before = cursor === null ? query.before : decodeCursor(cursor);
    const page = { ...query, limit: EVENTS_CSV_PAGE, before };
    return opts.answers.events(page, JSON.stringify(page), opts.guardFor(request));
  });
  return {
    body: eventsCsv(events, o),
    contentType: 'text/csv; charset=utf-8',
    headers: { 'content-disposition': `attachment; filename="${eventsFileName(Date.now())}"` },
  };
}
