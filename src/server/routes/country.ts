import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { replyAsOf } from './as-of.js';
import { asOfQuery, BadRequest, ISO_EXPECTED, isoParams } from './params.js';
import { answer, sendError, type DataRouteOptions } from './respond.js';
import { zodRoute } from './route-schema.js';
import { teamCountry } from '../services/team-index/team-view.js';
import { teamAsOf, teamOf, teamServed } from './team-reply.js';

/**
 * `/api/v1/country/:iso`: from the JSON export when it lists countries, else the endpoint; with
 * `as_of`, the country in that recorded batch from the store.
 */
export async function countryRoutes(app: FastifyInstance, opts: DataRouteOptions): Promise<void> {
  const route = zodRoute({ querystring: asOfQuery, params: isoParams });
  app.withTypeProvider<ZodTypeProvider>().get('/api/v1/country/:iso', route, (request, reply) => {
    const { asOf, index, weights } = request.query;
    const { iso } = request.params;
    const team = index === 'team' ? teamOf(opts.team) : null;
    if (asOf) {
      return replyAsOf(request, reply, opts.asOf, asOf, async (answers) => {
        const then = await answers.country(asOf, iso);
        return team ? teamAsOf(team, then, weights, teamCountry, `country:${iso}`) : then;
      });
    }
    return answer(request, reply, opts.metrics, async () => {
      const served = await opts.data.country(iso, opts.guardFor(request));
      return team ? teamServed(served, team, `country:${iso}`, teamCountry) : served;
    });
  });
  app.get('/api/v1/country/', (request, reply) =>
    answer(request, reply, opts.metrics, async () => {
      throw new BadRequest('iso is missing: ask for /api/v1/country/<three-letter code>');
    }),
  );
  // What the router cannot take as `:iso` (a second segment, a code longer than its
  // maxParamLength) is still a bad country code, not an unknown API route.
  app.get('/api/v1/country/*', (_request, reply) => sendError(reply, 400, ISO_EXPECTED));
}
