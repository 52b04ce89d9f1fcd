import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { OVERRIDES_MAX } from '../../shared/team-index-api.js';
import { principalOf } from '../principal.js';
import { recordAudit } from '../services/identity/audit.js';
import { overrideView, type Overrides } from '../services/team-index/overrides.js';
import { weightsView, type TeamWeights } from '../services/team-index/team-weights.js';
import { isoParams, noQuery } from './params.js';
import { zodRoute } from './route-schema.js';

export interface TeamIndexRouteOptions {
  weights: TeamWeights;
  overrides: Overrides;
}

const admin = { config: { role: 'admin' as const } };
const editor = { config: { role: 'editor' as const } };

/** Who made a change, as the weights and overrides keep it. */
function byWhom(request: FastifyRequest): string {
  return principalOf(request).name.slice(0, 200);
}

/**
 * Our own view of risk (issue 31): the team index's weights (`/api/index-weights`, admin) and
 * overrides of a country's level (`/api/overrides/:iso`, editor). Answers are `no-store` and
 * carry `ETag: "<version>"`; every change needs `If-Match` (`"0"` when there is none yet). The
 * audit hook records every write; the routes name the change.
 */
export async function teamIndexRoutes(
  app: FastifyInstance,
  opts: TeamIndexRouteOptions,
): Promise<void> {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get('/api/index-weights', zodRoute({ querystring: noQuery }), async (_request, reply) => {
    const answer = await opts.weights.answer();
    reply.header('cache-control', 'no-store').header('etag', `"${answer.current?.version ?? 0}"`);
    return answer;
  });
  typed.put(
    '/api/index-weights',
    { ...zodRoute({ querystring: noQuery }), ...admin },
    async (request, reply) => {
      const saved = await opts.weights.put(
        request.body,
        request.headers['if-match'],
        byWhom(request),
      );
      recordAudit(request, { action: 'team index weights set' });
      reply.header('cache-control', 'no-store').header('etag', `"${saved.version}"`);
      return { ok: true, weights: weightsView(saved) };
    },
  );

  typed.get('/api/overrides', zodRoute({ querystring: noQuery }), async (_request, reply) => {
    const rows = [...(await opts.overrides.inForce()).values()];
    reply.header('cache-control', 'no-store');
    return { ok: true, limit: OVERRIDES_MAX, overrides: rows.map(overrideView) };
  });
  const one = zodRoute({ querystring: noQuery, params: isoParams });
  typed.get('/api/overrides/:iso', one, async (request, reply) => {
    const row = await opts.overrides.get(request.params.iso);
    reply.header('cache-control', 'no-store').header('etag', `"${row.version}"`);
    return { ok: true, override: overrideView(row) };
  });
  typed.put('/api/overrides/:iso', { ...one, ...editor }, async (request, reply) => {
    const { iso } = request.params;
    const { before, saved } = await opts.overrides.put(
      iso,
      request.body,
      request.headers['if-match'],
      byWhom(request),
    );
    recordAudit(request, { action: before ? 'override changed' : 'override set' });
    reply.header('cache-control', 'no-store').header('etag', `"${saved.version}"`);
    return { ok: true, override: overrideView(saved) };
  });
  typed.delete('/api/overrides/:iso', { ...one, ...editor }, async (request, reply) => {
    const ended = await opts.overrides.delete(request.params.iso, request.headers['if-match']);
    recordAudit(request, { action: 'override ended' });
    reply.header('cache-control', 'no-store');
    return { ok: true, override: overrideView(ended) };
  });
}
