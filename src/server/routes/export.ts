import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { exportQuery } from './params.js';
import { answer, type DataRouteOptions } from './respond.js';
import { zodRoute } from './route-schema.js';

/** `/api/v1/export?format=csv|json`: the upstream's file, cached for the batch. */
export async function exportRoutes(app: FastifyInstance, opts: DataRouteOptions): Promise<void> {
  const route = zodRoute({ querystring: exportQuery });
  app
    .withTypeProvider<ZodTypeProvider>()
    .get('/api/v1/export', route, (request, reply) =>
      answer(request, reply, opts.metrics, () =>
        opts.data.exportFile(request.query, opts.guardFor(request)),
      ),
    );
}
