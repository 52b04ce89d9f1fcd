import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiProblem } from '../refusals.js';
import { sendError } from '../reply.js';
import { isPoolBusy, isStoreUnreachable } from '../store/connection.js';
import { storeFailure } from '../store/store-health.js';
import { routedPath } from './routed-path.js';

/**
 * The methods each registered route answers, learnt as routes are added: any other method on an
 * existing path is a 405 with `Allow`, not a 404, and new routes need no list kept by hand.
 */
class RouteMethods {
  readonly #byPattern = new Map<string, { pattern: RegExp; methods: Set<string> }>();

  add(url: string, method: string | string[]): void {
    // Catch-alls (`/api/*`) exist to shape 404s; they do not make a path exist.
    if (url.includes('*')) return;
    let entry = this.#byPattern.get(url);
    if (!entry) {
      const source = url
        .split('/')
        .map((part) =>
          part.startsWith(':') ? '[^/]+' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'),
        )
        .join('/');
      entry = { pattern: new RegExp(`^${source}$`), methods: new Set() };
      this.#byPattern.set(url, entry);
    }
    for (const m of Array.isArray(method) ? method : [method]) entry.methods.add(m);
  }

  /** The methods of the route matching `path`, in a stable order; empty when none matches. */
  allowed(path: string): string[] {
    const methods = new Set<string>();
    for (const { pattern, methods: own } of this.#byPattern.values()) {
      if (pattern.test(path)) for (const m of own) methods.add(m);
    }
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].sort(
      (a, b) => METHOD_ORDER.indexOf(a) - METHOD_ORDER.indexOf(b) || a.localeCompare(b),
    );
  }
}

/** The route @fastify/static registers for the SPA's files (prefix `/`, wildcard). */
const STATIC_ROUTE = '/*';

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** For Fastify's `frameworkErrors`: a URL it cannot decode, in our shape. */
export function frameworkError(error: Error, _request: FastifyRequest, reply: FastifyReply): void {
  void sendError(
    reply,
    400,
    (error as { code?: string }).code === 'FST_ERR_BAD_URL'
      ? 'The request URL could not be read (malformed percent-encoding)'
      : 'The request could not be read',
  );
}

/**
 * For Fastify's `clientErrorHandler`: what Node's HTTP parser rejects before Fastify sees a
 * request (an unknown method, a broken request line) still gets our JSON shape.
 */
export function clientError(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) return;
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const body = JSON.stringify({
    ok: false,
    error: tooLarge
      ? 'Request headers too large'
      : 'The request could not be read (bad request line or method)',
  });
  socket.end(
    `HTTP/1.1 ${tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request'}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** `/country/UKR`, `/`, `/overview`: no file extension in the last segment. */
function isPageRoute(path: string): boolean {
  const last = path.split('/').pop() ?? '';
  return !last.includes('.');
}

/**
 * Every error in the BFF's one shape, `{"ok": false, "error": "..."}`: Fastify's own (bad JSON,
 * unsupported media type, body too large, rate limits) with their message, anything unexpected as
 * a plain 500 whose details go to the log only. Unknown API routes are a JSON 404; page routes
 * get the SPA's index.html; a missing asset is a 404, never index.html (that would hide a broken
 * build behind a 200 text/html).
 */
export function installErrorHandlers(app: FastifyInstance, spa: boolean): void {
  // Registered before the routes (app.ts installs plugins first), so every route is seen.
  const routes = new RouteMethods();
  app.addHook('onRoute', (route) => routes.add(route.url, route.method));

  app.setErrorHandler(sendProblem);

  // Under /api/ the static file handler must never answer (it would say 403 "Forbidden" to a
  // path too long for the router): unknown API paths are a JSON 404. A route family that needs a
  // more precise refusal registers its own wildcard (routes/country.ts does).
  app.get('/api/*', (_request, reply) => sendError(reply, 404, 'No such API route'));

  // The path is not repeated in answers: it is the caller's text, and can be long.
  app.setNotFoundHandler((request, reply) => {
    const path = routedPath(request);
    const allowed = routes.allowed(path);
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      const use = allowed.filter((m) => m !== 'HEAD');
      return sendError(
        reply.header('allow', allowed.join(', ')),
        405,
        `Method ${request.method} is not allowed here; use ${use.join(' or ')}`,
      );
    }
    if (path === '/api' || path.startsWith('/api/')) {
      return sendError(reply, 404, `No such API route for ${request.method}`);
    }
    const readable = request.method === 'GET' || request.method === 'HEAD';
    if (spa && readable && isPageRoute(path)) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return sendError(reply, 404, 'Not found');
  });
}

/** The one place an error becomes an answer: its status, plain words and wait. */
function sendProblem(
  error: { statusCode?: number; message?: string },
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  // Every refusal the BFF raises, from any layer: its status, words and wait.
  if (error instanceof ApiProblem) {
    return sendError(reply, error.status, error.message, error.retryAfterMs);
  }
  const status = error.statusCode ?? 500;
  // The static file handler (plugins/spa.ts, the one `/*` route) refuses a dotfile, a name longer
  // than the file system takes and a path spelt two ways with a bare 403 "Forbidden". No file of
  // the build answers such a path: a page route gets the SPA, anything else the plain 404, and
  // whether a dotfile exists is not told.
  if (status === 403 && request.routeOptions.url === STATIC_ROUTE) {
    reply.callNotFound();
    return reply;
  }
  // The embedded store cannot keep writes (folder gone, disk full): refused, never acknowledged.
  const failing = storeFailure(error);
  if (failing) {
    request.log.warn({ err: error }, 'store failing');
    return sendError(reply, 503, failing.message, 30_000);
  }
  if (isPoolBusy(error)) {
    // Every pooled connection is in use (a burst), not a database that is down: say so.
    request.log.warn({ err: error }, 'store connections busy');
    return sendError(
      reply,
      503,
      'The history store is busy (every database connection is in use); try again in a few seconds.',
      5_000,
    );
  }
  if (isStoreUnreachable(error)) {
    // History, watchlists and alerts live in the store; live data is still served.
    request.log.warn({ err: error }, 'store unreachable');
    return sendError(
      reply,
      503,
      'The history store (PostgreSQL) cannot be reached right now; current data is still served. Try again in a minute.',
      30_000,
    );
  }
  if (status >= 500) {
    request.log.error({ err: error }, 'request failed');
    return sendError(
      reply,
      500,
      'Internal error: the dashboard server could not handle this request',
    );
  }
  const retryAfter = Number(reply.getHeader('retry-after'));
  return sendError(
    reply,
    status,
    error.message ?? 'Bad request',
    status === 429 && Number.isFinite(retryAfter) ? retryAfter * 1000 : null,
  );
}
