import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MissGuard } from '../cache/resource-cache.js';
import { ClientLimitError } from '../client-limit.js';
import { COMPRESS_FROM_BYTES } from '../services/rendering/encoding.js';
import type { Served } from '../services/rendering/render.js';
import type { RiskAnswers } from '../services/risk-answers/risk-answers.js';
import type { Metrics } from '../metrics.js';
import { UpstreamError } from '../upstream/errors.js';
import { sendError } from '../reply.js';
import type { AsOfRouteParts } from './as-of.js';
import { ApiProblem } from '../refusals.js';
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
}

/** Bodies above this go out as a stream of chunks (exports), smaller ones in one write. */
const STREAM_ABOVE_BYTES = 256 * 1024;
const CHUNK_BYTES = 64 * 1024;

export function sendServed(
  request: FastifyRequest,
  reply: FastifyReply,
  served: Served,
): FastifyReply {
  reply.code(served.status).headers(served.headers).type(served.contentType);
  let body = served.body;
  let etag = served.headers.etag;
  if (served.compress && etag !== undefined && body.length >= COMPRESS_FROM_BYTES) {
    // The choice depends on Accept-Encoding: caches must key on it, identity answers included.
    reply.header('vary', 'Accept-Encoding');
    // Memoised beside the cached body: a hit compresses nothing.
    const encoded = served.compress(request.headers['accept-encoding']);
    if (encoded) {
      body = encoded.body;
      etag = encoded.etag;
      reply.header('content-encoding', encoded.encoding).header('etag', etag);
    }
  }
  if (served.status === 200 && etag !== undefined && notModified(request, etag)) {
    return reply.code(304).send();
  }
  if (body.length > STREAM_ABOVE_BYTES) {
    reply.header('content-length', String(body.length));
    return reply.send(Readable.from(chunks(body)));
  }
  return reply.send(body);
}

/**
 * `If-None-Match`: `*`, or a list of entity tags compared weakly (RFC 9110 13.1.2), so a client
 * holding several versions, or a strong form of our weak tag, still gets its 304.
 */
function notModified(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const opaque = (tag: string): string => tag.trim().replace(/^W\//, '');
  const ours = opaque(etag);
  return header.split(',').some((tag) => opaque(tag) === ours);
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
