import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Admission } from '../history-question-limit.js';
import type { HistoryAnswers } from '../services/history/history-answers.js';
import { StoreQueryLimitError, type StoreQueryGuard } from '../store-query-limit.js';
import {
  changesQuery,
  checkRetention,
  checkSinceRetention,
  eventsQuery,
  rangeQuery,
} from './history-params.js';
import { BadRequest, isoParams } from './params.js';
import { sendError } from './respond.js';
import { zodRoute } from './route-schema.js';

export interface HistoryRouteOptions {
  answers: HistoryAnswers;
  /** The oldest time the store still holds under HISTORY_RETENTION_DAYS (null: everything). */
  retentionStart: () => Date | null;
  /** The request's store-query guard: its client's rate and the bound on queries in flight. */
  guardFor: (request: FastifyRequest) => StoreQueryGuard;
  /** Every question's turn under its client's budget and the bounds on answers at once. */
  admit: (request: FastifyRequest) => Promise<Admission>;
}

async function reply400(
  admission: Promise<Admission>,
  reply: FastifyReply,
  work: () => Promise<string>,
): Promise<FastifyReply> {
  let admitted: Admission | null = null;
  let chars = 0;
  try {
    admitted = await admission;
    // JSON already: the answers are joined from parts serialised once per batch.
    const body = await work();
    chars = body.length;
    // Answers change with each recorded batch; the SPA polls /api/status to notice one.
    return reply
      .header('cache-control', 'no-cache')
      .type('application/json; charset=utf-8')
      .send(body);
  } catch (error) {
    if (error instanceof BadRequest) return sendError(reply, 400, error.message);
    // 429: this client asks the store too often; 503: too many store queries wait already.
    if (error instanceof StoreQueryLimitError) {
      return sendError(reply, error.status, error.message, error.retryAfterMs);
    }
    throw error;
  } finally {
    // Charged by the answer's size; the next waiting question is woken on the next turn.
    admitted?.done(chars);
  }
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
    reply400(admit(request), reply, async () => {
      checkRetention(request.query, opts.retentionStart());
      return answers.globalHistoryJson(request.query, guardFor(request));
    }),
  );
  const countryRoute = zodRoute({ querystring: rangeQuery, params: isoParams });
  typed.get('/api/history/country/:iso', countryRoute, (request, reply) =>
    reply400(admit(request), reply, async () => {
      checkRetention(request.query, opts.retentionStart());
      return answers.countryHistoryJson(request.params.iso, request.query, guardFor(request));
    }),
  );
  app.get('/api/history/country/', (_request, reply) =>
    sendError(reply, 400, 'iso is missing: ask for /api/history/country/<three-letter code>'),
  );
  typed.get('/api/changes', zodRoute({ querystring: changesQuery }), (request, reply) =>
    reply400(admit(request), reply, async () => {
      const { since, asked } = request.query;
      checkSinceRetention(since, opts.retentionStart());
      return answers.changesJson(since, asked, guardFor(request));
    }),
  );
  typed.get('/api/events', zodRoute({ querystring: eventsQuery }), (request, reply) =>
    reply400(admit(request), reply, async () => {
      checkRetention(request.query, opts.retentionStart());
      // The parsed query is the memo key: equivalent spellings share one answer.
      return answers.eventsJson(request.query, JSON.stringify(request.query), guardFor(request));
    }),
  );
}
