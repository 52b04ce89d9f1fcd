import type { FastifyInstance } from 'fastify';
import { referenceCountriesServed } from '../services/reference-countries.js';
import { BadRequest, readQuery } from './params.js';
import { sendError, sendServed } from './respond.js';

/**
 * `/api/reference/countries`: every ISO 3166-1 country (names, aliases, UN region), for the
 * search palette and the region filter. Built once when the app is built; spends nothing upstream.
 */
export async function referenceRoutes(app: FastifyInstance): Promise<void> {
  const served = referenceCountriesServed();
  app.get('/api/reference/countries', (request, reply) => {
    try {
      readQuery(request.url, []);
    } catch (error) {
      if (error instanceof BadRequest) return sendError(reply, 400, error.message);
      throw error;
    }
    return sendServed(request, reply, served);
  });
}
