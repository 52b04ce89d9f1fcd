import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { etagOf } from '../services/alert-views.js';
import { ApiProblem, type Viewer, type WatchlistService } from '../services/watchlists.js';
import type { DeliveryLogView } from '../services/delivery-log.js';
import { BadRequest, readQuery } from './params.js';
import { sendError } from './respond.js';

export interface WatchlistRouteOptions {
  watchlists: WatchlistService;
  deliveryLog: DeliveryLogView;
  viewerOf: (request: FastifyRequest) => Viewer;
}

/** Maps refusals to `{ok:false,error}`; anything else is the error handler's 500. */
export async function guarded(reply: FastifyReply, work: () => Promise<unknown>): Promise<unknown> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ApiProblem) return sendError(reply, error.status, error.message);
    if (error instanceof BadRequest) return sendError(reply, 400, error.message);
    throw error;
  }
}

/** `/api/watchlists`: list, create, read, replace (If-Match), delete (If-Match), test, log. */
export async function watchlistRoutes(
  app: FastifyInstance,
  opts: WatchlistRouteOptions,
): Promise<void> {
  const { watchlists } = opts;
  const noStore = (reply: FastifyReply): FastifyReply => reply.header('cache-control', 'no-store');

  app.get('/api/watchlists', (request, reply) =>
    guarded(reply, async () => {
      readQuery(request.url, []);
      noStore(reply);
      return { ok: true, watchlists: await watchlists.list(opts.viewerOf(request)) };
    }),
  );

  app.post('/api/watchlists', (request, reply) =>
    guarded(reply, async () => {
      readQuery(request.url, []);
      const { row, secret } = await watchlists.create(request.body, opts.viewerOf(request));
      noStore(reply)
        .code(201)
        .header('etag', etagOf(row))
        .header('location', `/api/watchlists/${row.id}`);
      return {
        ok: true,
        watchlist: await watchlists.view(row),
        ...(secret ? { webhook_secret: secret } : {}),
      };
    }),
  );

  app.get<{ Params: { id: string } }>('/api/watchlists/:id', (request, reply) =>
    guarded(reply, async () => {
      readQuery(request.url, []);
      const row = await watchlists.row(request.params.id, opts.viewerOf(request));
      noStore(reply).header('etag', etagOf(row));
      return { ok: true, watchlist: await watchlists.view(row) };
    }),
  );

  app.put<{ Params: { id: string } }>('/api/watchlists/:id', (request, reply) =>
    guarded(reply, async () => {
      readQuery(request.url, []);
      const { row, secret } = await watchlists.update(
        request.params.id,
        request.headers['if-match'],
        request.body,
        opts.viewerOf(request),
      );
      noStore(reply).header('etag', etagOf(row));
      return {
        ok: true,
        watchlist: await watchlists.view(row),
        ...(secret ? { webhook_secret: secret } : {}),
      };
    }),
  );

  app.delete<{ Params: { id: string } }>('/api/watchlists/:id', (request, reply) =>
    guarded(reply, async () => {
      readQuery(request.url, []);
      await watchlists.remove(
        request.params.id,
        request.headers['if-match'],
        opts.viewerOf(request),
      );
      return { ok: true };
    }),
  );

  app.post<{ Params: { id: string } }>('/api/watchlists/:id/test', (request, reply) =>
    guarded(reply, async () => {
      readQuery(request.url, []);
      const id = await watchlists.sendTest(request.params.id, opts.viewerOf(request));
      reply.code(202);
      return { ok: true, message_id: id };
    }),
  );

  app.get<{ Params: { id: string } }>('/api/watchlists/:id/deliveries', (request, reply) =>
    guarded(reply, async () => {
      readQuery(request.url, []);
      const row = await watchlists.row(request.params.id, opts.viewerOf(request));
      noStore(reply);
      return { ok: true, deliveries: await opts.deliveryLog.of(row.id) };
    }),
  );
}
