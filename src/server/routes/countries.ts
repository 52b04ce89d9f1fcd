import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { replyAsOf } from './as-of.js';
import { asOfQuery } from './params.js';
import { answer, type DataRouteOptions } from './respond.js';
import { zodRoute } from './route-schema.js';

/**
 * `/api/countries`: every country of the latest batch with scores and categories; with `as_of`,
 * of that recorded batch, from the store.
 */
export async function countriesRoutes(app: FastifyInstance, opts: DataRouteOptions): Promise<void> {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get('/api/countries', zodRoute({ querystring: asOfQuery }), (request, reply) => {
      const { asOf } = request.query;
      if (asOf) return replyAsOf(request, reply, opts.asOf, asOf, (a) => a.countries(asOf));
      return answer(request, reply, opts.metrics, () =>
        opts.data.countries(opts.guardFor(request)),
      );
    });
}
