import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BATCH_ID_PATTERN } from '../../shared/batches-api.js';
import { comparableBodySchema } from '../../shared/method-api.js';
import { principalOf } from '../principal.js';
import { BadRequest } from '../refusals.js';
import type { MethodChanges } from '../services/batches/method-changes.js';
import { recordAudit } from '../services/identity/audit.js';
import { zodWords } from '../services/api-problem.js';
import { noQuery } from './params.js';
import { paramsOf, zodRoute } from './route-schema.js';

export interface MethodChangeRouteOptions {
  methodChanges: MethodChanges;
}

const batchParams = paramsOf({ id: z.string() });

/**
 * `/api/method-changes` (issue 31): the provider's method changes held, and an admin's word that
 * one is comparable after all (which evaluates the rules it held, once; audit-logged).
 */
export async function methodChangeRoutes(
  app: FastifyInstance,
  opts: MethodChangeRouteOptions,
): Promise<void> {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get('/api/method-changes', zodRoute({ querystring: noQuery }), async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { ok: true, method_changes: await opts.methodChanges.list() };
  });

  typed.put(
    '/api/method-changes/:id',
    { ...zodRoute({ querystring: noQuery, params: batchParams }), config: { role: 'admin' } },
    async (request, reply) => {
      const batchId = request.params.id;
      if (!BATCH_ID_PATTERN.test(batchId)) {
        throw new BadRequest(
          'the id must be a batch id as /api/method-changes lists it (64 lower-case hexadecimal characters)',
        );
      }
      const body = comparableBodySchema.safeParse(request.body);
      if (!body.success)
        throw new BadRequest(zodWords(body.error, 'the body must be {"comparable": true}'));
      const by = principalOf(request).name;
      const done = await opts.methodChanges.markComparable(batchId, by);
      recordAudit(request, {
        action: 'method change marked comparable',
        object: `/api/method-changes/${batchId}`,
        before: done.before,
        after: done.after,
      });
      reply.header('cache-control', 'no-store');
      return { ok: true, method_change: done.after, released_alerts: done.released };
    },
  );
}
