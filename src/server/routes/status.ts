import type { FastifyInstance } from 'fastify';
import type { StatusResponse } from '../../shared/bff-api.js';
import type { Metrics } from '../metrics.js';
import { noQuery } from './params.js';
import { sendError } from './respond.js';
import { zodRoute } from './route-schema.js';

export interface OpsRouteOptions {
  status: () => StatusResponse;
  /** True when data can be served; otherwise starts fetching it (once, in the background). */
  ready: () => { ready: boolean; reason: string };
  metrics: Metrics;
}

/** `/api/status`: costs no upstream request, so the SPA polls it to notice a new batch. */
export async function statusRoutes(app: FastifyInstance, opts: OpsRouteOptions): Promise<void> {
  app.get('/api/status', zodRoute({ querystring: noQuery }), async (_request, reply) =>
    reply.header('cache-control', 'no-cache').send(opts.status()),
  );
}

/** `/healthz` (the process answers), `/readyz` (data can be served), `/metrics` (Prometheus). */
export async function opsRoutes(app: FastifyInstance, opts: OpsRouteOptions): Promise<void> {
  // Probes cannot sign in (GET and HEAD only).
  app.get('/healthz', { config: { signInFree: true } }, async (_request, reply) =>
    reply.header('cache-control', 'no-store').send({ ok: true }),
  );
  app.get('/readyz', { config: { signInFree: true } }, async (_request, reply) => {
    const { ready, reason } = opts.ready();
    reply.header('cache-control', 'no-store');
    return ready ? reply.send({ ok: true }) : sendError(reply, 503, reason);
  });
  app.get('/metrics', async (_request, reply) =>
    reply
      .header('cache-control', 'no-store')
      .type(opts.metrics.contentType())
      .send(await opts.metrics.text()),
  );
}
