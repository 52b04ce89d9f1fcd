import type { FastifyInstance } from 'fastify';
import { sendError } from '../reply.js';

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
  app.setErrorHandler((error: { statusCode?: number; message?: string }, request, reply) => {
    const status = error.statusCode ?? 500;
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
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (path === '/api' || path.startsWith('/api/')) {
      return sendError(reply, 404, `No such API route: ${request.method} ${path}`);
    }
    const readable = request.method === 'GET' || request.method === 'HEAD';
    if (spa && readable && isPageRoute(path)) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return sendError(reply, 404, `Not found: ${request.method} ${path}`);
  });
}
