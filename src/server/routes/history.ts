import type { FastifyInstance, FastifyReply } from 'fastify';
import type { HistoryAnswers } from '../services/history-answers.js';
import { parseEventQuery, parseRange, parseSince } from './history-params.js';
import { BadRequest, parseIso, readQuery } from './params.js';
import { sendError } from './respond.js';

export interface HistoryRouteOptions {
  answers: HistoryAnswers;
  /** The oldest time the store still holds under HISTORY_RETENTION_DAYS (null: everything). */
  retentionStart: () => Date | null;
}

async function reply400(reply: FastifyReply, work: () => Promise<object>): Promise<FastifyReply> {
  try {
    const body = await work();
    // Answers change with each recorded batch; the SPA polls /api/status to notice one.
    return reply.header('cache-control', 'no-cache').send(body);
  } catch (error) {
    if (error instanceof BadRequest) return sendError(reply, 400, error.message);
    throw error;
  }
}

/** The BFF's own memory of every batch: none of these spends an upstream request. */
export async function historyRoutes(
  app: FastifyInstance,
  opts: HistoryRouteOptions,
): Promise<void> {
  const { answers } = opts;
  app.get('/api/history/global', (request, reply) =>
    reply400(reply, async () => {
      const range = parseRange(readQuery(request.url, ['from', 'to']), opts.retentionStart());
      return answers.globalHistory(range);
    }),
  );
  app.get<{ Params: { iso: string } }>('/api/history/country/:iso', (request, reply) =>
    reply400(reply, async () => {
      const query = readQuery(request.url, ['from', 'to']);
      const iso = parseIso(request.params.iso);
      return answers.countryHistory(iso, parseRange(query, opts.retentionStart()));
    }),
  );
  app.get('/api/history/country/', (_request, reply) =>
    sendError(reply, 400, 'iso is missing: ask for /api/history/country/<three-letter code>'),
  );
  app.get('/api/changes', (request, reply) =>
    reply400(reply, async () => {
      const raw = readQuery(request.url, ['since']).get('since');
      const since = parseSince(raw, opts.retentionStart());
      return answers.changes(since, raw ?? 'previous');
    }),
  );
  app.get('/api/events', (request, reply) =>
    reply400(reply, async () => {
      const query = readQuery(request.url, [
        'iso',
        'q',
        'from',
        'to',
        'role',
        'breaking',
        'cursor',
        'limit',
      ]);
      const parsed = parseEventQuery(query, opts.retentionStart());
      const key = [...query].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k}=${v}`);
      return answers.events(parsed, key.join('&'));
    }),
  );
}
