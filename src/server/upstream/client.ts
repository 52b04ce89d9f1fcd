import type { IncomingHttpHeaders } from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Metrics } from '../metrics.js';
import type { Secret } from '../secret.js';
import {
  classifyStatus,
  headerInt,
  headerValue,
  retryAfterMs,
  upstreamErrorText,
} from './classify.js';
import { isRetryable, UpstreamError, type UpstreamErrorClass } from './errors.js';
import { queryString, Transport, TransportError, type RawResponse } from './http.js';
import type { Purpose, QuotaLedger } from './quota.js';

export type UpstreamRoute = 'hotspots' | 'country' | 'export';

/** An answer the BFF can use: a success, or a 400/404 that is the upstream's verdict. */
export interface UpstreamAnswer {
  status: 200 | 400 | 404;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The upstream's `{ok:false,error}` text for 400/404, sanitised. */
  errorText: string | null;
}

export interface UpstreamHealth {
  lastError: {
    class: UpstreamErrorClass;
    message: string;
    at: number;
    status: number | null;
  } | null;
  lastSuccessAt: number | null;
  lastOutcome: 'ok' | 'error' | null;
}

export interface UpstreamClientOptions {
  baseUrl: string;
  apiKey: Secret;
  timeouts: { connectMs: number; requestMs: number };
  retry: { maxAttempts: number; maxTotalMs: number; baseDelayMs: number };
  quota: QuotaLedger;
  now: () => number;
  logger: FastifyBaseLogger;
  metrics: Metrics;
}

/** After a 401/403 the key is not tried again for this long (the answer will not change soon). */
const AUTH_RECHECK_MS = 60_000;
/** The circuit stays open this long after the first failure, doubling per failed probe. */
const CIRCUIT_BASE_MS = 5_000;
const CIRCUIT_MAX_MS = 5 * 60_000;
const MAX_BODY_BYTES = 64 * 1024 * 1024;
const BACKOFF_CAP_MS = 4000;

/**
 * One circuit breaker for the whole upstream. A failing upstream (unreachable, 5xx, or answers
 * that cannot be read, which it still charges for) is asked by one request at a time: the
 * request that saw the failure keeps its retries, everyone else is refused without sending; after
 * its last attempt the circuit opens (5 s, doubling per failed probe to 5 min), and then a single
 * probe (one attempt, no retries) decides whether it closes. Shared by every resource, so five
 * views polling a broken upstream cost one probe per interval, not five.
 */
interface Circuit {
  failures: number;
  openUntil: number;
  /** A request is retrying or probing: nobody else sends meanwhile. */
  probing: boolean;
  lastError: UpstreamError | null;
}

/**
 * The media type of an upstream's Content-Type for a message (`text/html`), without parameters:
 * a header is untrusted text (a hostile or buggy upstream may echo the key into it).
 */
function mediaType(header: string | null): string {
  if (header === null) return 'no content type';
  const match = /^\s*([a-z][a-z0-9.+-]{0,30}\/[a-z0-9][a-z0-9.+-]{0,40})\s*(;|$)/i.exec(header);
  const type = match?.[1]?.toLowerCase();
  // Long runs of letters and digits are not media types but could be a secret.
  if (!type || /[a-z0-9]{24}/.test(type) || /ar_live/.test(type))
    return 'an unreadable content type';
  return type;
}

/** Failure classes that say the upstream itself is in trouble (not our request, not the key). */
function tripsCircuit(error: UpstreamError): boolean {
  return isRetryable(error) || error.errorClass === 'malformed_response';
}

/**
 * The only holder of the API key: adds `Authorization` here and nowhere else, asks the quota
 * governor before every request, retries 500/502/503/504 and network failures with full-jitter
 * exponential back-off (bounded in attempts and total time), never retries 4xx, honours 429's
 * `Retry-After`, classifies every failure into one of the shared error classes, and keeps the
 * circuit breaker above.
 */
export class UpstreamClient {
  readonly #options: UpstreamClientOptions;
  readonly #transport: Transport;
  #authFailure: { error: UpstreamError; until: number } | null = null;
  #closed = false;
  #circuit: Circuit = { failures: 0, openUntil: 0, probing: false, lastError: null };
  #health: UpstreamHealth = { lastError: null, lastSuccessAt: null, lastOutcome: null };

  constructor(options: UpstreamClientOptions) {
    this.#options = options;
    // The transport gets the two numbers, not the settings slice (issue 35: one entry per part).
    const { connectMs, requestMs } = options.timeouts;
    this.#transport = new Transport({ connectMs, requestMs, maxBytes: MAX_BODY_BYTES });
  }

  health(): UpstreamHealth {
    return this.#health;
  }

  /**
   * GETs `path` and hands the answer to `read`, which turns it into what the caller keeps and
   * throws `malformed()` for an answer it cannot use: such an answer counts as a failure of the
   * upstream (for the circuit and the health), though it was a 200.
   */
  async get<T = UpstreamAnswer>(
    path: string,
    query: Record<string, string>,
    opts: { route: UpstreamRoute; purpose: Purpose; accept404?: boolean },
    read: (answer: UpstreamAnswer) => T = (answer) => answer as T,
  ): Promise<T> {
    const { now, retry } = this.#options;
    const auth = this.#authFailure;
    if (auth && now() < auth.until) throw auth.error.replayed(auth.until - now());
    // This request is the one that finds out whether a failing upstream is back.
    let prober = this.#enterCircuit();
    const maxAttempts = prober ? 1 : retry.maxAttempts;

    const started = performance.now();
    try {
      for (let attempt = 1; ; attempt++) {
        const permit = await this.#permit(opts.purpose);
        let error: UpstreamError;
        try {
          const result = read(await this.#attempt(path, query, opts, attempt, permit.seq));
          this.#recordSuccess();
          return result;
        } catch (caught) {
          if (!(caught instanceof UpstreamError)) throw caught;
          error = caught;
        }
        const trips = tripsCircuit(error);
        // The first request to see the upstream fail keeps its retries; one that fails while
        // another is already finding out (or after the circuit opened) gives up at once.
        let giveUp = false;
        if (trips && !prober) {
          const circuit = this.#circuit;
          if (circuit.probing || circuit.failures > 0) giveUp = true;
          else prober = circuit.probing = true;
        }
        const delay = this.#backoff(attempt, error);
        const elapsed = performance.now() - started;
        if (
          giveUp ||
          !isRetryable(error) ||
          attempt >= maxAttempts ||
          elapsed + delay > retry.maxTotalMs
        ) {
          if (trips && prober) this.#openCircuit(error);
          this.recordFailure(error);
          throw error;
        }
        this.#logRetry(path, opts.route, attempt, error, delay);
        await sleep(delay);
      }
    } finally {
      if (prober) this.#circuit.probing = false;
    }
  }

  /** The budget's permit for one attempt; refused while shutting down or when it says no. */
  async #permit(purpose: Purpose) {
    if (this.#closed) {
      throw new UpstreamError(
        'network',
        'The dashboard server is shutting down',
        null,
        null,
        false,
      );
    }
    const permit = await this.#options.quota.acquire(purpose);
    if (!permit.ok) {
      throw new UpstreamError(
        'rate_limited',
        `Not asking the Risk API now: ${permit.reason}`,
        null,
        permit.retryAfterMs,
        false,
      );
    }
    return permit;
  }

  #logRetry(
    path: string,
    route: UpstreamRoute,
    attempt: number,
    error: UpstreamError,
    delay: number,
  ): void {
    this.#options.logger.info(
      { route, path, attempt, class: error.errorClass, status: error.status, delay },
      'retrying the Risk API',
    );
  }

  /** When the upstream is failing: refuses (sends nothing), or makes this request the probe. */
  #enterCircuit(): boolean {
    const circuit = this.#circuit;
    const now = this.#options.now();
    const last = circuit.lastError;
    if (circuit.probing) {
      throw new UpstreamError(
        last?.errorClass ?? 'network',
        `The Risk API is failing; one request is checking whether it is back${last ? ` (${last.message})` : ''}`,
        last?.status ?? null,
        CIRCUIT_BASE_MS,
        false,
      );
    }
    if (circuit.failures === 0) return false;
    if (now < circuit.openUntil && last) throw last.replayed(circuit.openUntil - now);
    circuit.probing = true;
    return true;
  }

  #openCircuit(error: UpstreamError): void {
    const circuit = this.#circuit;
    circuit.failures++;
    const wait = Math.min(CIRCUIT_MAX_MS, CIRCUIT_BASE_MS * 2 ** (circuit.failures - 1));
    circuit.openUntil = this.#options.now() + wait;
    circuit.lastError = error;
  }

  /** Parses a success body with a shared schema; a broken one becomes a 502-class failure. */
  json<S extends z.core.$ZodType>(answer: UpstreamAnswer, schema: S, path: string): z.infer<S> {
    let raw: unknown;
    try {
      raw = JSON.parse(answer.body.toString('utf8'));
    } catch {
      throw this.malformed(path, answer, 'a body that is not JSON');
    }
    const parsed = z.safeParse(schema, raw);
    if (!parsed.success) {
      const where = parsed.error.issues[0]?.path.join('.') || 'the top level';
      throw this.malformed(path, answer, `JSON of an unexpected shape (at ${where})`);
    }
    return parsed.data;
  }

  /** The failure for an unusable success answer (`get` records it when `read` throws it). */
  malformed(path: string, answer: { status: number; headers: IncomingHttpHeaders }, what: string) {
    const type = mediaType(headerValue(answer.headers, 'content-type'));
    return new UpstreamError(
      'malformed_response',
      `The Risk API sent ${what} for ${path} (status ${answer.status}, ${type})`,
      answer.status,
    );
  }

  recordFailure(error: UpstreamError): void {
    if (!error.sent) return;
    this.#health = {
      ...this.#health,
      lastError: {
        class: error.errorClass,
        message: error.message,
        at: this.#options.now(),
        status: error.status,
      },
      lastOutcome: 'error',
    };
    this.#options.logger.warn(
      { class: error.errorClass, status: error.status, msg: error.message },
      'Risk API request failed',
    );
  }

  /** Stops at once: sockets in flight are destroyed and nothing is retried or sent after. */
  close(): void {
    this.#closed = true;
    this.#transport.close();
  }

  #recordSuccess(): void {
    this.#authFailure = null;
    this.#circuit = { failures: 0, openUntil: 0, probing: false, lastError: null };
    this.#health = { ...this.#health, lastSuccessAt: this.#options.now(), lastOutcome: 'ok' };
  }

  #backoff(attempt: number, error: UpstreamError): number {
    const ceiling = Math.min(BACKOFF_CAP_MS, this.#options.retry.baseDelayMs * 2 ** (attempt - 1));
    // Full jitter: spreads retries of many clients; a 503's Retry-After is a floor.
    return Math.max(Math.random() * ceiling, error.retryAfterMs ?? 0);
  }

  async #attempt(
    path: string,
    query: Record<string, string>,
    opts: { route: UpstreamRoute; accept404?: boolean },
    attempt: number,
    seq: number,
  ): Promise<UpstreamAnswer> {
    const { baseUrl, apiKey, quota, now, metrics, logger } = this.#options;
    const url = new URL(baseUrl + path + queryString(query));
    const started = performance.now();
    let response: RawResponse;
    try {
      response = await this.#transport.get(url, {
        authorization: `Bearer ${apiKey.reveal()}`,
        accept: 'application/json, text/csv;q=0.9, */*;q=0.1',
      });
    } catch (error) {
      if (!(error instanceof TransportError)) throw error;
      metrics.upstreamRequests.inc({ route: opts.route, status: error.kind });
      throw new UpstreamError(
        error.kind,
        error.kind === 'timeout'
          ? `The Risk API did not answer in time (${error.message})`
          : `The Risk API could not be reached (${error.message})`,
      );
    }
    const { status, headers, body } = response;
    metrics.upstreamRequests.inc({ route: opts.route, status: String(status) });
    quota.recordHeaders(
      headerInt(headers, 'x-ratelimit-limit'),
      headerInt(headers, 'x-ratelimit-remaining'),
      seq,
    );
    logger.debug(
      { route: opts.route, path, status, attempt, ms: Math.round(performance.now() - started) },
      'Risk API answered',
    );
    const text = status === 200 ? null : upstreamErrorText(body, apiKey.reveal());
    if (status === 200) return { status, headers, body, errorText: null };
    // A 404 without the API's error shape (an HTML page) means a wrong base URL, not "no country".
    if (status === 400 || (status === 404 && opts.accept404 && text !== null)) {
      return { status, headers, body, errorText: text };
    }
    const wait = retryAfterMs(headers, body, now());
    const error = classifyStatus(status, text, path, wait);
    if (status === 429) quota.block(wait ?? 60_000);
    if (status === 401 || status === 403) {
      this.#authFailure = { error, until: now() + AUTH_RECHECK_MS };
    }
    throw error;
  }
}
