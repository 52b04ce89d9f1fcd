import type { FastifyInstance } from 'fastify';
import { hotspotQueryMemo, parseHotspotsQuery } from './params.js';
import { answer, type DataRouteOptions } from './respond.js';

/** `/api/v1/hotspots`: same parameters and shape as the upstream's, served from the cache. */
export async function hotspotRoutes(app: FastifyInstance, opts: DataRouteOptions): Promise<void> {
  const memo = hotspotQueryMemo();
  app.get('/api/v1/hotspots', (request, reply) =>
    answer(request, reply, opts.metrics, () =>
      opts.data.hotspots(parseHotspotsQuery(request.url, memo), opts.guardFor(request)),
    ),
  );
}
