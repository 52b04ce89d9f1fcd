import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { replyAsOf } from './as-of.js';
import { hotspotsQuery } from './params.js';
import { answer, sendServed, type DataRouteOptions } from './respond.js';
import { memoisedQueryRoute } from './route-schema.js';
import { teamHotspots, type TeamLens } from '../services/team-index/team-view.js';
import { teamAsOf, teamOf, teamServed } from './team-reply.js';

/**
 * `/api/v1/hotspots`: same parameters and shape as the upstream's, served from the cache; with
 * `as_of`, the ranking of that recorded batch from the store.
 */
export async function hotspotRoutes(app: FastifyInstance, opts: DataRouteOptions): Promise<void> {
  // The memo of parsed queries is this route's: the same dashboard URLs arrive over and over.
  const route = memoisedQueryRoute({ querystring: hotspotsQuery });
  app.withTypeProvider<ZodTypeProvider>().get('/api/v1/hotspots', route, (request, reply) => {
    const { asOf, index, weights } = request.query;
    if (index === 'team') {
      // Ranked by the team index over the batch's countries (hotspot rows have no categories).
      const team = teamOf(opts.team);
      const build = (body: never, lens: TeamLens) => teamHotspots(body, lens, request.query);
      // The parsed query names the held answer: each hotspot list is one of its own.
      const kind = `hotspots:${JSON.stringify(request.query)}`;
      if (asOf) {
        return replyAsOf(request, reply, opts.asOf, asOf, async (answers) =>
          teamAsOf(team, await answers.countries(asOf), weights, build, kind),
        );
      }
      return answer(request, reply, opts.metrics, async () =>
        teamServed(await opts.data.countries(opts.guardFor(request)), team, kind, build),
      );
    }
    if (asOf) {
      return replyAsOf(request, reply, opts.asOf, asOf, (answers) =>
        answers.hotspots(asOf, request.query),
      );
    }
    // A fresh cached answer is sent in this turn: no promise between the socket and the bytes
    // (issue 35 item 10). Everything else (miss, refresh, stale, refusal) goes through `answer`.
    const query = request.query;
    const fresh = opts.data.freshHotspots(query);
    if (fresh) {
      // The next GET of this very URL is answered before Fastify while the entry stays fresh.
      opts.fast?.remember(request.url, fresh, () => opts.data.freshHotspots(query));
      sendServed(request, reply, fresh);
      return;
    }
    return answer(request, reply, opts.metrics, () =>
      opts.data.hotspots(request.query, opts.guardFor(request)),
    );
  });
}
