import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { KeyStore, INVALID_KEY_BODY, type DemoTier } from './auth.js';
import { documentedBatchClock, fastBatchClock } from './batches.js';
import { exportFileName } from './export-format.js';
import { brokenBody, checkFaults, faultStatus, type DemoFaults } from './faults.js';
import { DemoData, type TierWords } from './generator.js';
import { withMethod } from './method-change.js';
import type { Batch } from './payload-types.js';
import { openApiDocument } from './openapi.js';
import {
  countryAnswer,
  errorAnswer,
  exportAnswer,
  hotspotsAnswer,
  type RouteAnswer,
} from './routes.js';

/**
 * The demo upstream: our own implementation of the Global Risk Index API (upstream-api.md, with
 * the choices of docs/upstream-gaps.md), on a real HTTP port, so the BFF talks to it exactly as it
 * would to the real service.
 */

export type { DemoTier } from './auth.js';
export type { DemoFaults } from './faults.js';
export { ABSENT_ISOS } from './vocabulary.js';
export { ADVERSARIAL_HEADLINE, ADVERSARIAL_ISO, ADVERSARIAL_URL } from './generator.js';

export interface DemoUpstreamOptions {
  port?: number;
  host?: string;
  now?: () => number;
  batchIntervalMs?: number;
  faults?: DemoFaults;
  logger?: boolean;
  adversarialEvents?: boolean;
  /** Tier words other than the documented codes (see `DemoDataOptions.tierLabels`). */
  tierLabels?: TierWords;
}

export interface RequestLogEntry {
  method: string;
  path: string;
  /** Raw query string without `?` ('' when none); additive to the interface. */
  query: string;
  status: number;
  at: number;
}

export interface DemoUpstream {
  url: string;
  issueKey(tier: DemoTier, options?: { limit?: number }): string;
  deactivateKey(key: string): void;
  setFaults(faults: DemoFaults): void;
  requestCount(): number;
  requestLog(): ReadonlyArray<RequestLogEntry>;
  close(): Promise<void>;
}

const API_PREFIX = '/api/v1/';
/** The request log keeps the newest entries only, so a long-running demo does not grow without end. */
export const REQUEST_LOG_LIMIT = 10_000;
const KNOWN_PATHS = /^\/api\/(v1\/(hotspots|export|country\/[^/]*)|openapi\.json)$/;

function splitUrl(url: string): { path: string; query: string } {
  const at = url.indexOf('?');
  return at < 0 ? { path: url, query: '' } : { path: url.slice(0, at), query: url.slice(at + 1) };
}

function send(reply: FastifyReply, answer: RouteAnswer): FastifyReply {
  return reply.code(answer.status).type(answer.contentType).send(answer.body);
}

export async function startDemoUpstream(options: DemoUpstreamOptions = {}): Promise<DemoUpstream> {
  const now = options.now ?? Date.now;
  const clock =
    options.batchIntervalMs === undefined
      ? documentedBatchClock
      : fastBatchClock(options.batchIntervalMs);
  const data = new DemoData({
    clock,
    adversarialEvents: options.adversarialEvents ?? false,
    tierLabels: options.tierLabels,
  });
  const keys = new KeyStore();
  let faults: DemoFaults = checkFaults(options.faults ?? {});
  let received = 0;
  const log: RequestLogEntry[] = [];
  const record = (entry: RequestLogEntry): void => {
    log.push(entry);
    if (log.length > REQUEST_LOG_LIMIT) log.splice(0, log.length - REQUEST_LOG_LIMIT);
  };

  // The rescaled copies of batches a method change serves, one per generated batch.
  const rescaled = new WeakMap<Batch, Batch>();
  const served = (): Batch => withMethod(data.batchAt(now()), faults.methodChange, rescaled);

  // Generate the current batch before the first request, so its cost is not a request's latency.
  data.batchAt(now());

  const app = Fastify({
    logger: options.logger ?? false,
    // Undecodable URLs (bad percent-encoding, overlong parameters) never reach the hooks: answer
    // them here in the API's error shape, and count and log them like any other request.
    frameworkErrors: (error, request, reply) => {
      const { path, query } = splitUrl(request.url);
      if (path.startsWith(API_PREFIX)) {
        received += 1;
        record({ method: request.method, path, query, status: 400, at: now() });
      }
      void send(reply, errorAnswer(400, `Bad request: ${error.message}`));
    },
  });

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const isApi = request.url.startsWith(API_PREFIX);
    if (isApi) received += 1;
    if (faults.latencyMs) await new Promise((done) => setTimeout(done, faults.latencyMs));
    if (faults.outage) {
      return send(reply, errorAnswer(503, 'The Global Risk Index service is unavailable (outage)'));
    }
    if (!isApi) return;
    const auth = keys.authenticate(request.headers.authorization);
    if (!auth.ok) {
      if (auth.status === 401)
        return reply.code(401).type('application/json').send(INVALID_KEY_BODY);
      return send(reply, errorAnswer(auth.status, auth.error));
    }
    // Requests to paths that do not exist are answered 404 and cost nothing.
    if (request.routeOptions.url === undefined) return;
    const quota = keys.consume(auth.key, now());
    reply.header('x-ratelimit-limit', String(quota.limit));
    if (!quota.allowed) {
      reply
        .header('x-ratelimit-remaining', '0')
        .header('retry-after', String(quota.retryAfterSeconds));
      return send(reply, {
        ...errorAnswer(429, 'Rate limit exceeded'),
        body: JSON.stringify({
          ok: false,
          error: `Rate limit exceeded: ${quota.limit} requests per hour for this key`,
          cap: quota.limit,
          retry_after_seconds: quota.retryAfterSeconds,
        }),
      });
    }
    reply.header('x-ratelimit-remaining', String(quota.remaining));
    const failure = faultStatus(faults.errorRate);
    if (failure) return send(reply, errorAnswer(failure.status, failure.error));
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const { path, query } = splitUrl(request.url);
    if (path.startsWith(API_PREFIX)) {
      record({ method: request.method, path, query, status: reply.statusCode, at: now() });
    }
    if (reply.statusCode !== 200) return payload;
    reply.header('cache-control', 'public, max-age=30');
    if (!path.startsWith(API_PREFIX) || typeof payload !== 'string') return payload;
    const broken = brokenBody(
      faults.malformedRate,
      payload,
      String(reply.getHeader('content-type')),
    );
    if (!broken) return payload;
    reply.type(broken.contentType);
    return broken.body;
  });

  app.get('/api/v1/hotspots', async (request, reply) =>
    send(reply, hotspotsAnswer(served(), request.query as Record<string, string>)),
  );
  app.get('/api/v1/country/:iso', async (request, reply) =>
    send(reply, countryAnswer(served(), (request.params as { iso: string }).iso)),
  );
  app.get('/api/v1/export', async (request, reply) => {
    const answer = exportAnswer(served(), request.query as Record<string, string>);
    if (answer.format) {
      const name = exportFileName(now(), answer.format);
      reply.header('content-disposition', `attachment; filename=${name}`);
    }
    return send(reply, answer);
  });
  // The description is public: it holds no data, costs no quota, and lets a client discover
  // the API before it has a key. It is outside /api/v1, which is where auth applies.
  const openApiBody = JSON.stringify(openApiDocument(), null, 2);
  app.get('/api/openapi.json', async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(openApiBody),
  );

  app.setNotFoundHandler(async (request, reply) => {
    const { path } = splitUrl(request.url);
    if (KNOWN_PATHS.test(path)) {
      reply.header('allow', 'GET, HEAD');
      return send(reply, errorAnswer(405, `Method ${request.method} is not allowed; use GET`));
    }
    return send(reply, errorAnswer(404, `No such endpoint: ${request.method} ${path}`));
  });
  app.setErrorHandler(async (error: { statusCode?: number; message: string }, _request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    const message = status < 500 ? `Bad request: ${error.message}` : 'Internal error';
    return send(reply, errorAnswer(status, message));
  });

  await app.listen({ port: options.port ?? 0, host: options.host ?? '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  return {
    url: `http://${host}:${address.port}`,
    issueKey: (tier, keyOptions) => keys.issue(tier, keyOptions),
    deactivateKey: (key) => keys.deactivate(key),
    setFaults: (next) => {
      faults = checkFaults(next);
    },
    requestCount: () => received,
    requestLog: () => [...log],
    close: () => app.close(),
  };
}
