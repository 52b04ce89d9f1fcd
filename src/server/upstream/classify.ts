import type { IncomingHttpHeaders } from 'node:http';
import { parseRetryAfter } from '../../shared/retry-after.js';
import { errorBodySchema } from '../../shared/schemas/common.js';
import { sanitiseUpstreamText, UpstreamError } from './errors.js';

/** The upstream's `{ok:false, error}` text when the body has that shape, else null. */
export function upstreamErrorText(body: Buffer, key: string): string | null {
  try {
    const parsed = errorBodySchema.safeParse(JSON.parse(body.toString('utf8')));
    return parsed.success ? sanitiseUpstreamText(parsed.data.error, key) : null;
  } catch {
    return null;
  }
}

export function headerValue(headers: IncomingHttpHeaders, name: string): string | null {
  const value = headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

export function headerInt(headers: IncomingHttpHeaders, name: string): number | null {
  const raw = headerValue(headers, name);
  return raw !== null && /^\s*\d+\s*$/.test(raw) ? Number(raw) : null;
}

/** `Retry-After` in seconds or as an HTTP date, else the body's `retry_after_seconds`, in ms. */
export function retryAfterMs(
  headers: IncomingHttpHeaders,
  body: Buffer,
  now: number,
): number | null {
  const fromHeader = parseRetryAfter(headerValue(headers, 'retry-after'), now);
  if (fromHeader !== null) return fromHeader;
  try {
    const seconds = (JSON.parse(body.toString('utf8')) as { retry_after_seconds?: unknown })
      .retry_after_seconds;
    if (typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0) {
      return seconds * 1000;
    }
  } catch {
    // Not JSON: no hint beyond the header.
  }
  return null;
}

/** Turns a non-success HTTP answer into the failure class and a plain sentence. */
export function classifyStatus(
  status: number,
  text: string | null,
  path: string,
  waitMs: number | null,
): UpstreamError {
  const detail = text ? `: ${text}` : '';
  if (status === 401) {
    return new UpstreamError(
      'key_rejected',
      'The API key was rejected (401): check RISK_API_KEY',
      401,
    );
  }
  if (status === 403) {
    return new UpstreamError(
      'no_api_access',
      `This key's subscription has no API access (403)${detail}`,
      403,
    );
  }
  if (status === 429) {
    const seconds = waitMs === null ? null : Math.ceil(waitMs / 1000);
    return new UpstreamError(
      'rate_limited',
      `The Risk API's hourly request limit for this key is reached (429)${
        seconds === null ? '' : `; it may be asked again in ${seconds} s`
      }`,
      429,
      waitMs,
    );
  }
  if (status >= 500 && status <= 504 && status !== 501) {
    return new UpstreamError(
      'server_error',
      `The Risk API reported a server problem (${status})${detail}`,
      status,
      waitMs,
    );
  }
  return new UpstreamError(
    'malformed_response',
    `The Risk API answered ${path} with an unexpected status ${status}${detail}: check RISK_API_BASE_URL`,
    status,
  );
}
