import type { z } from 'zod/mini';
import { bffErrorSchema } from '../../shared/bff-api';
import { parseRetryAfter } from '../../shared/retry-after';
import { t } from './i18n';

/**
 * The one way the SPA talks to the BFF: same-origin GET, JSON parsed with the shared zod schemas.
 * A malformed answer becomes an ApiError (an error state on screen), never a crash further down.
 */

/** How an answer reached us: the BFF's cache headers, kept to say how old shown data is. */
export interface Fetched<T> {
  data: T;
  /** `X-Cache` (HIT, MISS, STALE) or null when the header is absent. */
  cache: string | null;
  /** `Age` in seconds: how long the BFF has held this answer. */
  ageSeconds: number | null;
  /** When the browser received it (epoch ms). */
  receivedAt: number;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    message: string,
    /** HTTP status, or 0 when no answer arrived or it could not be read. */
    readonly status: number,
    /** From the body's `retry_after_seconds` or the `Retry-After` header. */
    readonly retryAfterSeconds: number | null = null,
    /** When the error happened, so "try again at" can be computed later. */
    readonly at: number = Date.now(),
  ) {
    super(message);
  }

  get isClientError(): boolean {
    return this.status >= 400 && this.status < 500 && this.status !== 429;
  }

  /** When it makes sense to ask again (epoch ms), if the server said. */
  get retryAt(): number | null {
    return this.retryAfterSeconds === null ? null : this.at + this.retryAfterSeconds * 1000;
  }
}

/** The header's wait in whole seconds (rounded up), from the one shared parser. */
function retryAfterSeconds(header: string | null): number | null {
  const ms = parseRetryAfter(header, Date.now());
  return ms === null ? null : Math.ceil(ms / 1000);
}

/** What an answer's status says when its body does not (in the page language, issue 34). */
const STATUS_WORDS = {
  400: 'problems.status400',
  404: 'problems.status404',
  429: 'problems.status429',
  500: 'problems.status500',
  502: 'problems.status502',
  503: 'problems.status503',
  504: 'problems.status504',
} as const;

function statusWords(status: number): string {
  return status in STATUS_WORDS
    ? t(STATUS_WORDS[status as keyof typeof STATUS_WORDS])
    : t('problems.statusOther', { status });
}

async function errorFromResponse(response: Response): Promise<ApiError> {
  const headerRetry = retryAfterSeconds(response.headers.get('Retry-After'));
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // Not JSON (a proxy's HTML page, say): the status alone describes it.
  }
  const parsed = bffErrorSchema.safeParse(body);
  const message = parsed.success ? parsed.data.error : statusWords(response.status);
  const retry = (parsed.success ? parsed.data.retry_after_seconds : undefined) ?? headerRetry;
  return new ApiError(message, response.status, retry ?? null);
}

/**
 * A GET to the BFF: the network failure and any answer other than 2xx (or a 304 the caller
 * asked for with `If-None-Match`) become an ApiError in plain words.
 */
export async function requestBff(
  path: string,
  signal?: AbortSignal,
  headers: Record<string, string> = {},
): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(path, { headers: { Accept: 'application/json', ...headers }, signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(t('problems.unreachable'), 0);
  }
  const notModified = response.status === 304 && 'If-None-Match' in headers;
  if (!response.ok && !notModified) throw await errorFromResponse(response);
  return response;
}

/** An answer's JSON body checked against its schema, or an ApiError saying what was wrong. */
export async function readBff<S extends z.ZodMiniType>(
  response: Response,
  schema: S,
): Promise<z.infer<S>> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new ApiError(t('problems.notJson'), 0);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new ApiError(t('problems.unexpectedShape'), 0);
  }
  return parsed.data;
}

export async function fetchBff<S extends z.ZodMiniType>(
  path: string,
  schema: S,
  signal?: AbortSignal,
): Promise<Fetched<z.infer<S>>> {
  const response = await requestBff(path, signal);
  const data = await readBff(response, schema);
  const age = Number(response.headers.get('Age'));
  return {
    data,
    cache: response.headers.get('X-Cache'),
    ageSeconds: response.headers.has('Age') && Number.isFinite(age) ? age : null,
    receivedAt: Date.now(),
  };
}
