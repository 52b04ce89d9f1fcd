import type { FastifyInstance } from 'fastify';
import { referenceCountriesServed } from '../services/reference/reference-countries.js';
import { noQuery } from './params.js';
import { sendServed } from './respond.js';
import { zodRoute } from './route-schema.js';

/**
 * `/api/reference/countries`: every ISO 3166-1 country (names, aliases, UN region), for the
 * search palette and the region filter. Built once when the app is built; spends nothing upstream.
 */
export async function referenceRoutes(app: FastifyInstance): Promise<void> {
  const served = referenceCountriesServed();
  app.get('/api/reference/countries', zodRoute({ querystring: noQuery }), (request, reply) =>
    sendServed(request, reply, served),
  );
}
