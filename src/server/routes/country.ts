import type { FastifyInstance } from 'fastify';
import { BadRequest, parseIso, readQuery } from './params.js';
import { answer, type DataRouteOptions } from './respond.js';

/** `/api/v1/country/:iso`: from the JSON export when it lists countries, else the endpoint. */
export async function countryRoutes(app: FastifyInstance, opts: DataRouteOptions): Promise<void> {
  app.get<{ Params: { iso: string } }>('/api/v1/country/:iso', (request, reply) =>
    answer(request, reply, opts.metrics, async () => {
      readQuery(request.url, []);
      return opts.data.country(parseIso(request.params.iso), opts.guardFor(request));
    }),
  );
  app.get('/api/v1/country/', (request, reply) =>
    answer(request, reply, opts.metrics, async () => {
      throw new BadRequest('iso is missing: ask for /api/v1/country/<three-letter code>');
    }),
  );
}
