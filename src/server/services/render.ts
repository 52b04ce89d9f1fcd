import { createHash } from 'node:crypto';
import type { Loaded, Outcome } from '../cache/resource-cache.js';

/** A complete answer of the BFF, ready to send. */
export interface Served {
  status: number;
  contentType: string;
  body: Buffer;
  headers: Record<string, string>;
  /** Cache outcome for metrics; null for answers that never touched the cache. */
  outcome: Outcome | null;
  /**
   * The body is kept with the cache entry (not built for this request), so a compressed form
   * can be memoised beside it; per-request bodies (stale answers, exports) go out as they are.
   */
  compressible?: boolean;
}

export const JSON_TYPE = 'application/json; charset=utf-8';

interface Rendered {
  body: Buffer;
  etag: string;
}

const renders = new WeakMap<object, Map<string, Rendered>>();

function etagOf(body: Buffer): string {
  return `W/"${createHash('sha1').update(body).digest('base64url')}"`;
}

/**
 * Serialises a body once per cached source and variant (e.g. per hotspot limit), so a cache hit
 * costs a map lookup and a write: no JSON.stringify and no schema parsing per request.
 */
export function rendered(owner: object, variant: string, build: () => unknown): Rendered {
  let variants = renders.get(owner);
  if (!variants) {
    variants = new Map();
    renders.set(owner, variants);
  }
  let hit = variants.get(variant);
  if (!hit) {
    const body = Buffer.from(JSON.stringify(build()));
    hit = { body, etag: etagOf(body) };
    variants.set(variant, hit);
  }
  return hit;
}

/** Header values must be Latin-1; an upstream's text may not be. */
export function headerSafe(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?').slice(0, 300);
}

export function cacheHeaders(loaded: Loaded<unknown>, now: number): Record<string, string> {
  const age = Math.max(0, Math.floor((now - loaded.entry.fetchedAt) / 1000));
  const headers: Record<string, string> = {
    'x-cache': loaded.outcome.toUpperCase(),
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
  owner: object,
  variant: string,
  status: number,
  build: () => Record<string, unknown>,
  now: number,
): Served {
  const headers = cacheHeaders(loaded, now);
  let body: Buffer;
  let compressible = false;
  if (loaded.outcome === 'stale') {
    body = Buffer.from(
      JSON.stringify({ ...build(), stale: true, stale_reason: loaded.staleReason ?? 'stale' }),
    );
    headers.etag = etagOf(body);
  } else {
    const hit = rendered(owner, variant, build);
    body = hit.body;
    headers.etag = hit.etag;
    compressible = true;
  }
  return { status, contentType: JSON_TYPE, body, headers, outcome: loaded.outcome, compressible };
}
