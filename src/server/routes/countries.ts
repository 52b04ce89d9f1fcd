import type { FastifyInstance } from 'fastify';
import { readQuery } from './params.js';
import { answer, type DataRouteOptions } from './respond.js';

/** `/api/countries`: every country of the latest batch with scores and categories. */
export async function countriesRoutes(app: FastifyInstance, opts: DataRouteOptions): Promise<void> {
  app.get('/api/countries', (request, reply) =>
    answer(request, reply, opts.metrics, async () => {
      readQuery(request.url, []);
      return opts.data.countries(opts.guardFor(request));
    }),
  );
}
