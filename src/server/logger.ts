import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { pino, type Logger } from 'pino';

/**
 * Paths pino blanks out. Fastify's request serialiser logs no headers, but anything that ever
 * logs a request, a header bag or a config object must not leak a credential through it.
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  '*.authorization',
  '*.apiKey',
  '*.api_key',
  '*.key',
  '*.token',
  '*.password',
  '*.secret',
];

export function createLogger(level: string): Logger {
  return pino({ level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } });
}

/**
 * One access-log line per request (method, path, status, time, cache result) instead of
 * Fastify's two. At info: API answers that reached for the upstream or failed (MISS, STALE, any
 * status >= 400); cache hits, static files and probes at debug (LOG_LEVEL=debug shows them),
 * because a line per hit is noise that costs more CPU than the hit itself; /metrics counts them.
 */
const VERBOSE = new Set(['debug', 'trace']);

export class AccessLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const status = reply.statusCode;
    const cache = reply.getHeader('x-cache');
    const path = request.url.split('?')[0] ?? '/';
    const notable = status >= 400 || (cache !== undefined && cache !== 'HIT');
    if (!error && !notable && !VERBOSE.has(reply.log.level)) return;
    const line = { method: request.method, path, status, ms: Math.round(reply.elapsedTime), cache };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else if (notable) reply.log.info(line, 'request completed');
    else reply.log.debug(line, 'request completed');
  }
}
