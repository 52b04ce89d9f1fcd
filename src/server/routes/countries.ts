import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { replyAsOf } from './as-of.js';
import { asOfQuery } from './params.js';
import { answer, type DataRouteOptions } from './respond.js';
import { zodRoute } from './route-schema.js';
import { teamCountries } from '../services/team-index/team-view.js';
import { teamAsOf, teamOf, teamServed } from './team-reply.js';

/**
 * `/api/countries`: every country of the latest batch with scores and categories; with `as_of`,
 * of that recorded batch, from the store; with `index=team`, in the team view (issue 31).
 */
export async function countriesRoutes(app: FastifyInstance, opts: DataRouteOptions): Promise<void> {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get('/api/countries', zodRoute({ querystring: asOfQuery }), (request, reply) => {
      const { asOf, index, weights } = request.query;
      const team = index === 'team' ? teamOf(opts.team) : null;
      if (asOf) {
        return replyAsOf(request, reply, opts.asOf, asOf, async (answers) => {
          const batch = await answers.countries(asOf);
          return team ? teamAsOf(team, batch, weights, teamCountries, 'countries') : batch;
        });
      }
      return answer(request, reply, opts.metrics, async () => {
        const served = await opts.data.countries(opts.guardFor(request));
        return team ? teamServed(served, team, 'countries', teamCountries) : served;
      });
    });
}
