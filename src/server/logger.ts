import {
  LogController,
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';
import { pino, type DestinationStream, type Logger } from 'pino';
import { safeError } from './safe-error.js';

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

/**
 * Every error in a log line goes through `safeError`, under `err` or any other field: a failed
 * query's parameters (a webhook secret, a session hash) never reach the log.
 */
function withSafeErrors(object: Record<string, unknown>): Record<string, unknown> {
  let safe: Record<string, unknown> | null = null;
  for (const [name, value] of Object.entries(object)) {
    if (value instanceof Error) (safe ??= { ...object })[name] = safeError(value);
  }
  return safe ?? object;
}

/** The BFF's logger; `destination` (default stdout) lets tests read what it writes. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: { err: safeError },
    formatters: { log: withSafeErrors },
  };
  return destination ? pino(options, destination) : pino(options);
}

const VERBOSE = new Set(['debug', 'trace']);

/**
 * One access-log line per request (method, path, status, time, cache result) instead of
 * Fastify's two. At info: API answers that reached for the upstream or failed (MISS, STALE, any
 * status >= 400); cache hits, static files and probes at debug (LOG_LEVEL=debug shows them),
 * because a line per hit is noise that costs more CPU than the hit itself; /metrics counts them.
 */
export class AccessLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const status = reply.statusCode;
    const cache = reply.getHeader('x-cache');
    const notable = status >= 400 || (cache !== undefined && cache !== 'HIT');
    if (!error && !notable && !VERBOSE.has(reply.log.level)) return;
    const path = request.url.split('?')[0] ?? '/';
    const line = { method: request.method, path, status, ms: Math.round(reply.elapsedTime), cache };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else if (notable) reply.log.info(line, 'request completed');
    else reply.log.debug(line, 'request completed');
  }
}

type LogArgs = Parameters<FastifyBaseLogger['info']>;

/**
 * Fastify makes a child logger (bound to the request id) for every request, and pino runs the
 * redaction over its bindings each time: a measurable share of a cache hit, for a logger that a
 * hit never uses. This one makes the real child only when something is logged. Methods live on
 * the prototype, so a request allocates one small object.
 */
export class LazyChildLogger {
  #real: FastifyBaseLogger | null = null;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  get level(): string {
    return this.#real?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.#logger().level = level;
  }

  #logger(): FastifyBaseLogger {
    this.#real ??= this.parent.child(this.bindings, this.options);
    return this.#real;
  }

  fatal(...args: LogArgs): void {
    this.#logger().fatal(...args);
  }
  error(...args: LogArgs): void {
    this.#logger().error(...args);
  }
  warn(...args: LogArgs): void {
    this.#logger().warn(...args);
  }
  info(...args: LogArgs): void {
    this.#logger().info(...args);
  }
  debug(...args: LogArgs): void {
    this.#logger().debug(...args);
  }
  trace(...args: LogArgs): void {
    this.#logger().trace(...args);
  }
  silent(...args: LogArgs): void {
    this.#logger().silent(...args);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#logger().child(bindings, options);
  }
}
