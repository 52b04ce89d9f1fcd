import type { FastifyInstance } from 'fastify';
import type { StatusResponse } from '../../shared/bff-api.js';
import type { CheckNow } from '../cache/resource-cache.js';
import type { Metrics } from '../metrics.js';
import { UpstreamError } from '../upstream/errors.js';
import { noQuery } from './params.js';
import { sendError } from './respond.js';
import { zodRoute } from './route-schema.js';

export interface OpsRouteOptions {
  status: () => StatusResponse;
  /** True when data can be served; otherwise starts fetching it (once, in the background). */
  ready: () => { ready: boolean; reason: string };
  metrics: Metrics;
  /** Probe for a new batch now, unless one was checked within the gap (see ResourceCache). */
  checkNow: () => CheckNow;
}

/** `/api/status`: costs no upstream request, so the SPA polls it to notice a new batch. */
export async function statusRoutes(app: FastifyInstance, opts: OpsRouteOptions): Promise<void> {
  app.get('/api/status', zodRoute({ querystring: noQuery }), async (_request, reply) =>
    reply.header('cache-control', 'no-cache').send(opts.status()),
  );
}

/** At most one "check now" probe in this long, for everyone together. */
export const CHECK_NOW_GAP_MS = 5 * 60_000;

/**
 * `POST /api/status/check`: "check now" for people who saw a batch time pass. At most one probe
 * per CHECK_NOW_GAP_MS for everyone together; a press inside the gap is a 429 that says when.
 */
export async function batchCheckRoutes(app: FastifyInstance, opts: OpsRouteOptions): Promise<void> {
  // Anyone looking may ask whether a new batch is out (bounded by the check's own throttle).
  app.post(
    '/api/status/check',
    { ...zodRoute({ querystring: noQuery }), config: { role: 'viewer' } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      const check = opts.checkNow();
      if (!check.started) {
        const seconds = Math.max(1, Math.ceil(check.waitMs / 1000));
        reply.header('retry-after', String(seconds));
        return reply.code(429).send({
          ok: false,
          error: `The data service was checked for a new batch in the last ${CHECK_NOW_GAP_MS / 60_000} minutes; ask again in ${seconds < 60 ? `${seconds} s` : `${Math.ceil(seconds / 60)} min`}`,
          retry_after_seconds: seconds,
        });
      }
      // Answered when the probe has: the page then reads /api/status and sees any new batch.
      try {
        await check.done;
      } catch (error) {
        // The upstream's own failures are words for people (held back by the budget, down…).
        if (!(error instanceof UpstreamError)) throw error;
        return sendError(reply, 503, `The data service could not be checked: ${error.message}`);
      }
      const { as_of: asOf } = opts.status();
      return reply.send({ ok: true, as_of: asOf });
    },
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
