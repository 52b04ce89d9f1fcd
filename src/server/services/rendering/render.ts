import type { Loaded, Outcome } from '../../cache/resource-cache.js';
import { etagOf, type RenderedBodies, type RenderedBody } from './rendered-bodies.js';

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
