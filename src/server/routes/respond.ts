import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MissGuard } from '../cache/resource-cache.js';
import { ClientLimitError } from '../client-limit.js';
import { represent, type Served } from '../services/rendering/render.js';
import type { RiskAnswers } from '../services/risk-answers/risk-answers.js';
import type { Metrics } from '../metrics.js';
import { UpstreamError } from '../upstream/errors.js';
import { sendError } from '../reply.js';
import type { AsOfRouteParts } from './as-of.js';
import { ApiProblem } from '../refusals.js';
import type { FastAnswers } from '../services/rendering/fast-answers.js';
import type { TeamView } from '../services/team-index/team-view.js';

// Routes and plugins share the one error writer; it lives outside routes/ so plugins need not
// import from here. Re-exported for routes written against this module.
export { sendError };

/** What the data routes are given: the data service and a per-request miss guard; no internals. */
export interface DataRouteOptions {
  data: RiskAnswers;
  /** `?as_of=` answered from the store (null or absent: the server keeps no history). */
  asOf?: AsOfRouteParts | null;
  guardFor: (request: FastifyRequest) => MissGuard;
  metrics: Metrics;
  /** `?index=team` (issue 31); null or absent: the server keeps no store, and refuses it. */
  team?: TeamView | null;
  /** The hot path (issue 35 item 10): URLs answered before Fastify while fresh; absent: none. */
  fast?: FastAnswers;
}

/** Bodies above this go out as a stream of chunks (exports), smaller ones in one write. */
const STREAM_ABOVE_BYTES = 256 * 1024;
const CHUNK_BYTES = 64 * 1024;

export function sendServed(
  request: FastifyRequest,
  reply: FastifyReply,
  served: Served,
): FastifyReply {
  const { status, headers, body } = represent(
    served,
    request.headers['accept-encoding'],
    request.headers['if-none-match'],
  );
  reply.code(status).headers(headers);
  if (body === null) return reply.send();
  if (body.length > STREAM_ABOVE_BYTES) {
    reply.header('content-length', String(body.length));
    return reply.send(Readable.from(chunks(body)));
  }
  return reply.send(body);
}

function* chunks(body: Buffer): Generator<Buffer> {
  for (let at = 0; at < body.length; at += CHUNK_BYTES) yield body.subarray(at, at + CHUNK_BYTES);
}

/**
 * Runs a data request and maps every failure to `{ok:false, error}`: 400 for a bad request,
 * 429 for the per-client miss limit, 502 for an unreadable upstream answer, 503 when nothing can
 * be served (with Retry-After whenever the wait is known).
 */
export async function answer(
  request: FastifyRequest,
  reply: FastifyReply,
  metrics: Metrics,
  work: () => Promise<Served>,
): Promise<FastifyReply> {
  try {
    return sendServed(request, reply, await work());
  } catch (error) {
    // Refusals go to the one error handler (plugins/errors.ts); an upstream failure becomes one.
    if (error instanceof ClientLimitError) metrics.clientLimited.inc();
    if (error instanceof UpstreamError) {
      const status = error.errorClass === 'malformed_response' ? 502 : 503;
      throw new ApiProblem(status, noData(error), error.retryAfterMs);
    }
    throw error;
  }
}

function noData(error: UpstreamError): string {
  return `No data available yet for this request: ${error.message}`;
}
