import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BATCH_ID_PATTERN,
  BATCHES_PAGE_DEFAULT,
  BATCHES_PAGE_MAX,
} from '../../shared/batches-api.js';
import type { BatchChainAnswers } from '../services/batches/batch-chain-answers.js';
import { sendError } from '../reply.js';
import type { Admission } from '../store-question-limit.js';
import type { StoreQueryGuard } from '../store-question-limit.js';
import { guarded, reply400 } from './store-reply.js';
import { BadRequest, noQuery, parseTime } from './params.js';
import { NotFound, optional, paramsOf, queryOf, rule, shown, zodRoute } from './route-schema.js';

export interface BatchRouteOptions {
  answers: BatchChainAnswers;
  guardFor: (request: FastifyRequest) => StoreQueryGuard;
  /** The verification's turn under its client's budget (issue 29), as history questions take. */
  admit?: (request: FastifyRequest, what: string) => Promise<Admission>;
}

function parseLimit(raw: string | undefined): number {
  if (raw === undefined) return BATCHES_PAGE_DEFAULT;
  if (!/^\d{1,3}$/.test(raw) || Number(raw) < 1 || Number(raw) > BATCHES_PAGE_MAX) {
    throw new BadRequest(
      `limit must be a whole number from 1 to ${BATCHES_PAGE_MAX} (got ${shown(raw)})`,
    );
  }
  return Number(raw);
}

const listQuery = queryOf({ before: optional, limit: optional }).transform(
  rule((query: { before?: string; limit?: string }) => ({
    before: parseTime('before', query.before),
    limit: parseLimit(query.limit),
  })),
);

const idParams = paramsOf({
  id: z.string().transform(
    rule((raw: string) => {
      if (!BATCH_ID_PATTERN.test(raw)) {
        throw new BadRequest(
          `a batch id is 64 lower-case hexadecimal characters, as /api/batches lists them (got ${shown(raw)})`,
        );
      }
      return raw;
    }),
  ),
});

/** Citable batches (issue 22): the chain of batch ids, a batch's content, the verification. */
export async function batchRoutes(app: FastifyInstance, opts: BatchRouteOptions): Promise<void> {
  const { answers, guardFor } = opts;
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get('/api/batches', zodRoute({ querystring: listQuery }), (request, reply) =>
    reply400(reply, async () => {
      const { before, limit } = request.query;
      return JSON.stringify(await guarded(guardFor(request), () => answers.list(before, limit)));
    }),
  );
  typed.get('/api/batches/verify', zodRoute({ querystring: noQuery }), async (request, reply) => {
    // 503 while old batches are still being chained: "holds" would cover only part of them.
    const incomplete = answers.incomplete();
    if (incomplete) return sendError(reply, 503, incomplete.message, incomplete.retryAfterMs);
    // Heavy (it hashes every batch held): admitted per client like a history question; the
    // answer is built once per store revision and shared (BatchChainAnswers).
    return reply400(
      reply,
      async () => JSON.stringify(await guarded(guardFor(request), () => answers.verify())),
      opts.admit?.(request, 'chain verification') ?? null,
    );
  });
  typed.get(
    '/api/batches/:id',
    zodRoute({ querystring: noQuery, params: idParams }),
    (request, reply) =>
      reply400(reply, async () => {
        const { id } = request.params;
        const found = await guarded(guardFor(request), () => answers.batch(id));
        if (!found) {
          throw new NotFound(
            `no batch held here has the id ${id} (never recorded here, or removed by retention)`,
          );
        }
        return JSON.stringify(found);
      }),
  );
}
