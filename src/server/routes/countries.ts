import type { FastifyInstance } from 'fastify';
import { noQuery } from './params.js';
import { answer, type DataRouteOptions } from './respond.js';
import { zodRoute } from './route-schema.js';

/** `/api/countries`: every country of the latest batch with scores and categories. */
export async function countriesRoutes(app: FastifyInstance, opts: DataRouteOptions): Promise<void> {
  app.get('/api/countries', zodRoute({ querystring: noQuery }), (request, reply) =>
    answer(request, reply, opts.metrics, () => opts.data.countries(opts.guardFor(request))),
  );
}
