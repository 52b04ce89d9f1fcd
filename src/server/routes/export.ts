import type { FastifyInstance } from 'fastify';
import { parseFormat } from './params.js';
import { answer, type DataRouteOptions } from './respond.js';

/** `/api/v1/export?format=csv|json`: the upstream's file, cached for the batch. */
export async function exportRoutes(app: FastifyInstance, opts: DataRouteOptions): Promise<void> {
  app.get('/api/v1/export', (request, reply) =>
    answer(request, reply, opts.metrics, () =>
      opts.data.exportFile(parseFormat(request.url), opts.guardFor(request)),
    ),
  );
}
