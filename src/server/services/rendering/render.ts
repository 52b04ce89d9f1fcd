import type { Loaded, Outcome } from '../../cache/resource-cache.js';
import { COMPRESS_FROM_BYTES } from '../../cache/encoding.js';
import type { RenderedBodies, RenderedBody } from '../../cache/rendered-bodies.js';
import { etagOf } from '../../cache/encoding.js';

/** A complete answer of the BFF, ready to send. */
export interface Served {
  status: number;
  contentType: string;
  body: Buffer;
  headers: Record<string, string>;
  /** Cache outcome for metrics; null for answers that never touched the cache. */
  outcome: Outcome | null;
  /**
   * Set when the body is memoised beside its cache entry (not built for this request): its
   * compressed forms are memoised too. Per-request bodies (stale answers, exports) go out as is.
   */
  compress?: (acceptEncoding: string | string[] | undefined) => {
    body: Buffer;
    etag: string;
    encoding: string;
  } | null;
}

export const JSON_TYPE = 'application/json; charset=utf-8';

/** Header values must be Latin-1; an upstream's text may not be. */
export function headerSafe(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?').slice(0, 300);
}

/** `X-Cache` per outcome, written once rather than upper-cased per answer. */
const X_CACHE: Record<Outcome, string> = { hit: 'HIT', miss: 'MISS', stale: 'STALE' };

export function cacheHeaders(loaded: Loaded<unknown>, now: number): Record<string, string> {
  const age = Math.max(0, Math.floor((now - loaded.entry.fetchedAt) / 1000));
  const headers: Record<string, string> = {
    'x-cache': X_CACHE[loaded.outcome],
    age: String(age),
    // Browsers keep nothing: the SPA's own cache follows the shared freshness policy.
    'cache-control': 'no-cache',
  };
  if (loaded.staleReason !== null) headers['x-stale-reason'] = headerSafe(loaded.staleReason);
  return headers;
}

/**
 * A JSON answer from a cached source. Stale answers gain the additive `"stale": true` and
 * `"stale_reason"` (built per request: they are the rare path).
 */
export function servedJson(
  loaded: Loaded<unknown>,
  bodies: RenderedBodies,
  variant: string,
  status: number,
  build: () => Record<string, unknown>,
  now: number,
): Served {
  const headers = cacheHeaders(loaded, now);
  if (loaded.outcome === 'stale') {
    const body = Buffer.from(
      JSON.stringify({ ...build(), stale: true, stale_reason: loaded.staleReason ?? 'stale' }),
    );
    headers.etag = etagOf(body);
    return { status, contentType: JSON_TYPE, body, headers, outcome: loaded.outcome };
  }
  const record: RenderedBody = bodies.get(loaded.entry, variant, build);
  headers.etag = record.etag;
  return {
    status,
    contentType: JSON_TYPE,
    body: record.body,
    headers,
    outcome: loaded.outcome,
    compress: (acceptEncoding) => bodies.encode(record, acceptEncoding),
  };
}

/** What goes on the wire for one answer to one client: its status, headers and body. */
export interface Representation {
  status: number;
  /** The answer's own headers (content type included; not the security set, not the length). */
  headers: Record<string, string>;
  /** Null for a 304. */
  body: Buffer | null;
}

/**
 * The representation of `served` a client gets for its `Accept-Encoding` and `If-None-Match`:
 * the one decision both writers use (Fastify's reply in routes/respond.ts, and the fast path of
 * plugins/fast-answers.ts), so the two cannot drift apart.
 */
export function represent(
  served: Served,
  acceptEncoding: string | string[] | undefined,
  ifNoneMatch: string | undefined,
): Representation {
  const headers: Record<string, string> = { ...served.headers, 'content-type': served.contentType };
  let body = served.body;
  let etag = served.headers.etag;
  if (served.compress && etag !== undefined && body.length >= COMPRESS_FROM_BYTES) {
    // The choice depends on Accept-Encoding: caches must key on it, identity answers included.
    headers.vary = 'Accept-Encoding';
    // Memoised beside the cached body: a hit compresses nothing.
    const encoded = served.compress(acceptEncoding);
    if (encoded) {
      body = encoded.body;
      etag = encoded.etag;
      headers['content-encoding'] = encoded.encoding;
      headers.etag = etag;
    }
  }
  if (served.status === 200 && etag !== undefined && notModified(ifNoneMatch, etag)) {
    return { status: 304, headers, body: null };
  }
  return { status: served.status, headers, body };
}

/**
 * `If-None-Match`: `*`, or a list of entity tags compared weakly (RFC 9110 13.1.2), so a client
 * holding several versions, or a strong form of our weak tag, still gets its 304.
 */
function notModified(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const opaque = (tag: string): string => tag.trim().replace(/^W\//, '');
  const ours = opaque(etag);
  return header.split(',').some((tag) => opaque(tag) === ours);
}
