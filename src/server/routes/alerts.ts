import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Actor, AlertInbox } from '../services/alerts/alert-inbox.js';
import { ApiProblem, type Viewer } from '../services/alerts/watchlists.js';
import { noQuery } from './params.js';
import { optional, paramsOf, queryOf, zodRoute } from './route-schema.js';

export interface AlertRouteOptions {
  inbox: AlertInbox;
  viewerOf: (request: FastifyRequest) => Viewer;
  /** Who acknowledges: the name the team sees. */
  actorOf: (request: FastifyRequest) => Actor;
}

/** The inbox's filters; their values are checked by the inbox itself (plain-word 400s). */
const inboxQuery = queryOf({
  unread: optional,
  state: optional,
  disposition: optional,
  watchlist: optional,
  iso: optional,
  cursor: optional,
  limit: optional,
});

export const markReadSchema = z.union(
  [
    z.strictObject({
      ids: z
        .array(z.string().regex(/^[1-9]\d{0,14}$/, 'ids must be alert ids such as "12"'))
        .min(1, 'ids must list at least one alert')
        .max(500, 'ids may list at most 500 alerts'),
    }),
    z.strictObject({ all: z.literal(true) }),
  ],
  { error: 'The body must be {"ids": ["12", …]} or {"all": true}' },
);

/**
 * `/api/alerts`: the inbox (newest first, paged, filtered by state, list, country and
 * disposition), the asker's unread count, mark read, acknowledge and its history.
 */
export async function alertRoutes(app: FastifyInstance, opts: AlertRouteOptions): Promise<void> {
  app.get('/api/alerts', zodRoute({ querystring: inboxQuery }), async (request, reply) => {
    const query = new Map(
      Object.entries(request.query as Record<string, string | undefined>).flatMap(([k, v]) =>
        v === undefined ? [] : [[k, v] as const],
      ),
    );
    reply.header('cache-control', 'no-store');
    return { ok: true, ...(await opts.inbox.list(query, opts.viewerOf(request))) };
  });

  app.get(
    '/api/alerts/unread-count',
    zodRoute({ querystring: noQuery }),
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { ok: true, unread: await opts.inbox.unread(opts.viewerOf(request)) };
    },
  );

  // Marking read is every viewer's own business (issue 21).
  app.post(
    '/api/alerts/read',
    { ...zodRoute({ querystring: noQuery }), config: { role: 'viewer' } },
    async (request) => {
      const parsed = markReadSchema.safeParse(request.body);
      if (!parsed.success) {
        throw new ApiProblem(400, parsed.error.issues[0]?.message ?? 'Invalid body');
      }
      const ids = 'ids' in parsed.data ? parsed.data.ids.map(Number) : null;
      const marked = await opts.inbox.markRead(ids, opts.viewerOf(request));
      return { ok: true, marked, unread: await opts.inbox.unread(opts.viewerOf(request)) };
    },
  );

  // Ids are checked by the inbox (a plain-word 400 or 404); the schema only types them.
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const withId = zodRoute({ querystring: noQuery, params: paramsOf({ id: z.string() }) });

  // Acknowledging is every viewer's work (issue 21); the acknowledgement is the team's.
  typed.post(
    '/api/alerts/:id/acknowledgement',
    { ...withId, config: { role: 'viewer' } },
    async (request, reply) => {
      const alert = await opts.inbox.acknowledge(
        request.params.id,
        request.body,
        opts.viewerOf(request),
        opts.actorOf(request),
      );
      reply.header('cache-control', 'no-store');
      return { ok: true, alert };
    },
  );

  typed.get('/api/alerts/:id/acknowledgements', withId, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return {
      ok: true,
      acknowledgements: await opts.inbox.acknowledgements(
        request.params.id,
        opts.viewerOf(request),
      ),
    };
  });
}
