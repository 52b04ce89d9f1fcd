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
  countryRangeQuery,
  rangeQuery,
} from './history-params.js';
import { teamHistoryJson } from './team-reply.js';
import type { TeamView } from '../services/team-index/team-view.js';
import { isoParams } from './params.js';
import { sendError } from './respond.js';
import { admittedReply, guarded } from './store-reply.js';
import { zodRoute } from './route-schema.js';

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
  const countryRoute = zodRoute({ querystring: rangeQuery, params: isoParams });
  typed.get('/api/country/:iso/explain', countryRoute, (request, reply) =>
    admittedReply(admit(request), reply, async () => {
      checkRetention(request.query, opts.retentionStart());
      const { from, to } = request.query;
      return JSON.stringify(
        await guarded(guardFor(request), () =>
          opts.explanations.explain(request.params.iso, from, to),
        ),
      );
    }),
  );
  app.get('/api/history/country/', (_request, reply) =>
    sendError(reply, 400, 'iso is missing: ask for /api/history/country/<three-letter code>'),
  );
  typed.get('/api/changes', zodRoute({ querystring: changesQuery }), (request, reply) =>
    admittedReply(admit(request), reply, async () => {
      const { since, asked, asOf } = request.query;
      checkSinceRetention(since, opts.retentionStart());
      if (asOf) checkRetention({ from: asOf, to: null }, opts.retentionStart());
      return answers.changesJson(since, asked, guardFor(request), asOf);
    }),
  );
  typed.get('/api/events', zodRoute({ querystring: eventsQuery }), (request, reply) =>
    admittedReply(admit(request), reply, async () => {
      checkRetention(request.query, opts.retentionStart());
      // The parsed query is the memo key: equivalent spellings share one answer.
      return answers.eventsJson(request.query, JSON.stringify(request.query), guardFor(request));
    }),
  );
}
