import type { UPSTREAM_ERROR_CLASSES } from '../../shared/bff-api.js';

export type UpstreamErrorClass = (typeof UPSTREAM_ERROR_CLASSES)[number];

/**
 * A failure to get a usable answer from the Risk API. `message` is plain words fit for a user or
 * an operator (never a header, the key or the base URL); `sent` is false when the BFF refused to
 * send at all (quota governor, a recent 401/403, failure back-off), which spends nothing.
 */
export class UpstreamError extends Error {
  override name = 'UpstreamError';

  constructor(
    readonly errorClass: UpstreamErrorClass,
    message: string,
    readonly status: number | null = null,
    readonly retryAfterMs: number | null = null,
    readonly sent = true,
  ) {
    super(message);
  }

  /** The same failure, re-reported without a new request (back-off, remembered 401/403). */
  replayed(retryAfterMs: number | null): UpstreamError {
    return new UpstreamError(this.errorClass, this.message, this.status, retryAfterMs, false);
  }
}

/** Failures worth another attempt after a pause: the API documents 500/502/503 as such; 504 (a gateway timeout) and network failures are too. */
export function isRetryable(error: UpstreamError): boolean {
  return (
    error.errorClass === 'network' ||
    error.errorClass === 'timeout' ||
    error.errorClass === 'server_error'
  );
}

const KEY_LIKE = /ar_live_[0-9a-zA-Z]*/g;

/**
 * An upstream's own error text, shortened and with anything key-like removed: a buggy or hostile
 * upstream must not be able to make us echo a key into a response or a log line.
 */
export function sanitiseUpstreamText(text: string, key: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim().slice(0, 200);
  return oneLine.split(key).join('[redacted]').replace(KEY_LIKE, '[redacted]');
}
