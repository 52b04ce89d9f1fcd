import { createHmac } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import { parseRetryAfter } from '../../shared/retry-after.js';
import { refusedAddress, refusedUrl } from '../services/alerts/address-policy.js';

export interface WebhookTarget {
  url: string;
  /** `whsec_<base64>`: the signing key is the base64-decoded part. */
  secret: string;
}

export interface SendOptions {
  /** WEBHOOK_ALLOW_PRIVATE: loopback/private addresses and plain http allowed. */
  allowPrivate: boolean;
  connectTimeoutMs: number;
  totalTimeoutMs: number;
  /** The resolver (tests pass one that answers private addresses for test names). */
  resolve?: typeof dnsLookup;
}

export interface SendResult {
  /** HTTP status, or null when no answer came (network error, timeout, refused address). */
  status: number | null;
  /** From `Retry-After` (seconds or an HTTP date), when the answer had one. */
  retryAfterMs: number | null;
  durationMs: number;
  /** Plain words for the delivery log; null on success. */
  error: string | null;
  /** Worth trying again: 5xx, 408, 429, timeouts and network errors. */
  retryable: boolean;
}

/** Standard Webhooks: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` keyed by the secret's bytes. */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** A DNS lookup that refuses names resolving to any non-public address. */
function guardedLookup(resolve: typeof dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 4);
      for (const entry of addresses) {
        const why = refusedAddress(entry.address);
        if (why) return callback(new RefusedAddressError(`${hostname} resolves to ${why}`), '', 4);
      }
      if ((options as { all?: boolean }).all) {
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      }
      const first = addresses[0];
      if (!first) return callback(new Error(`${hostname} has no address`), '', 4);
      callback(null, first.address, first.family);
    });
  };
}

class RefusedAddressError extends Error {
  override name = 'RefusedAddressError';
}

/**
 * POSTs a signed body once. Never follows redirects (a 3xx is a failure that is not retried);
 * reads at most 4 KB of the answer; a connect and a total timeout bound every attempt.
 */
export function sendWebhook(
  target: WebhookTarget,
  messageId: string,
  body: string,
  options: SendOptions,
): Promise<SendResult> {
  const started = Date.now();
  const done: Done = (partial) => ({
    ...partial,
    durationMs: Date.now() - started,
  });
  const refused = refusedUrl(target.url, options.allowPrivate);
  if (refused) {
    return Promise.resolve(
      done({ status: null, retryAfterMs: null, error: refused, retryable: false }),
    );
  }
  return post(new URL(target.url), signedHeaders(target, messageId, body), body, options, done);
}

/** The Standard Webhooks headers of one attempt, signed now. */
function signedHeaders(target: WebhookTarget, messageId: string, body: string) {
  // The wall clock, not an injected one: receivers compare it with theirs (replay window).
  const timestamp = Math.floor(Date.now() / 1000);
  return {
    'content-type': 'application/json',
    'user-agent': 'GlobalRiskDashboard-Webhooks/1',
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook(target.secret, messageId, timestamp, body),
    'content-length': String(Buffer.byteLength(body)),
  };
}

type Done = (partial: Omit<SendResult, 'durationMs'>) => SendResult;

/**
 * One POST of `body`: no redirect followed, at most 4 KB of the answer read, the connect and the
 * total timeout, the connected address checked again; settles once, whatever happens first.
 */
function post(
  url: URL,
  headers: Record<string, string>,
  body: string,
  options: SendOptions,
  done: Done,
): Promise<SendResult> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: SendResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      clearTimeout(totalTimer);
      resolve(result);
    };
    const fail = (error: string, retryable: boolean): void =>
      finish(done({ status: null, retryAfterMs: null, error, retryable }));
    const transport = url.protocol === 'https:' ? https : http;
    const request = transport.request(url, {
      method: 'POST',
      headers,
      agent: false,
      lookup: options.allowPrivate ? undefined : guardedLookup(options.resolve ?? dnsLookup),
    });
    const connectTimer = setTimeout(() => {
      fail(`no connection within ${options.connectTimeoutMs} ms`, true);
      request.destroy();
    }, options.connectTimeoutMs);
    const totalTimer = setTimeout(() => {
      fail(`no complete answer within ${options.totalTimeoutMs} ms`, true);
      request.destroy();
    }, options.totalTimeoutMs);
    request.on('socket', (socket: Socket) => {
      socket.once('connect', () => {
        clearTimeout(connectTimer);
        // Checked again for the address actually connected to (DNS answers can change).
        const why = options.allowPrivate ? null : refusedAddress(socket.remoteAddress ?? '');
        if (why) {
          fail(`refused to send: ${why}`, false);
          request.destroy();
        }
      });
    });
    request.on('error', (error) => {
      if (error instanceof RefusedAddressError)
        return fail(`refused to send: ${error.message}`, false);
      fail(`network error: ${(error as NodeJS.ErrnoException).code ?? error.message}`, true);
    });
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > 4096) response.destroy();
      });
      const settle = (): void => finish(done(answered(status, response.headers['retry-after'])));
      response.on('end', settle);
      response.on('close', settle);
      response.on('error', settle);
    });
    request.end(body);
  });
}

/** What a receiver's answer means: 2xx delivered; 5xx, 408 and 429 worth retrying; 3xx refused. */
function answered(status: number, retryAfter: string | undefined): Omit<SendResult, 'durationMs'> {
  const ok = status >= 200 && status < 300;
  const retryable = status >= 500 || status === 408 || status === 429;
  return {
    status,
    retryAfterMs: parseRetryAfter(retryAfter, Date.now()),
    error: ok
      ? null
      : status >= 300 && status < 400
        ? `answered ${status} (redirects are not followed)`
        : `answered ${status}`,
    retryable,
  };
}
