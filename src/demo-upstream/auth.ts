import { createHash, randomBytes } from 'node:crypto';

/**
 * Keys and quotas, as the document states them: a key is `ar_live_` + 64 hex characters, shown
 * once and stored only as its SHA-256; limits are per key over a sliding 60 minutes, kept as a
 * log of request times (by the injectable clock) so the window slides request by request.
 */

export type DemoTier = 'Pro' | 'Team' | 'Enterprise' | 'Custom' | 'Free' | 'Trial';

/** Requests per hour per key; 0 = no API access (403, never 429). */
export const TIER_LIMITS: Readonly<Record<DemoTier, number>> = {
  Pro: 50,
  Team: 100,
  Enterprise: 250,
  Custom: 1000,
  Free: 0,
  Trial: 0,
};

export const WINDOW_MS = 60 * 60_000;
export const INVALID_KEY_BODY = '{"ok": false, "error": "Invalid API key"}';
const KEY_PATTERN = /^ar_live_[0-9a-fA-F]{64}$/;
const BEARER_PATTERN = /^Bearer +(\S+) *$/i;

interface KeyRecord {
  tier: DemoTier;
  limit: number;
  active: boolean;
  /** Times (epoch ms) of the requests counted in the current window, oldest first. */
  log: number[];
}

export type AuthResult =
  { ok: true; key: KeyRecord } | { ok: false; status: 401 | 403; error: string };

export type QuotaResult =
  | { allowed: true; limit: number; remaining: number }
  | { allowed: false; limit: number; retryAfterSeconds: number };

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export class KeyStore {
  private readonly keys = new Map<string, KeyRecord>();

  issue(tier: DemoTier, options: { limit?: number } = {}): string {
    if (!(tier in TIER_LIMITS)) throw new Error(`unknown tier "${String(tier)}"`);
    let limit = TIER_LIMITS[tier];
    if (options.limit !== undefined) {
      if (tier !== 'Custom') throw new Error('limit is configurable only for Custom keys');
      if (!Number.isInteger(options.limit) || options.limit < 1) {
        throw new Error(`limit must be a positive integer (got ${options.limit})`);
      }
      limit = options.limit;
    }
    const key = `ar_live_${randomBytes(32).toString('hex')}`;
    this.keys.set(sha256(key), { tier, limit, active: true, log: [] });
    return key;
  }

  deactivate(key: string): void {
    const record = this.keys.get(sha256(key));
    if (!record) throw new Error('deactivateKey: no such key was issued by this demo upstream');
    record.active = false;
  }

  /** Checks the Authorization header; 401 and 403 cost nothing against the limit. */
  authenticate(header: string | undefined): AuthResult {
    const key = header ? BEARER_PATTERN.exec(header)?.[1] : undefined;
    if (!key || !KEY_PATTERN.test(key)) {
      return { ok: false, status: 401, error: 'Invalid API key' };
    }
    const record = this.keys.get(sha256(key));
    if (!record) {
      return { ok: false, status: 403, error: 'No API key with this value was issued' };
    }
    if (!record.active) {
      return { ok: false, status: 403, error: 'The subscription of this API key is inactive' };
    }
    if (record.limit === 0) {
      return {
        ok: false,
        status: 403,
        error: `The ${record.tier} tier does not include API access; a paid tier is required`,
      };
    }
    return { ok: true, key: record };
  }

  /** Counts one request at `now` if the sliding window has room. */
  consume(record: KeyRecord, now: number): QuotaResult {
    const log = record.log;
    // A request made at t counts while now < t + WINDOW_MS.
    let expired = 0;
    while (expired < log.length && (log[expired] ?? 0) <= now - WINDOW_MS) expired += 1;
    if (expired > 0) log.splice(0, expired);
    if (log.length >= record.limit) {
      const oldest = log[0] ?? now;
      const retryAfterSeconds = Math.max(1, Math.ceil((oldest + WINDOW_MS - now) / 1000));
      return { allowed: false, limit: record.limit, retryAfterSeconds };
    }
    log.push(now);
    return { allowed: true, limit: record.limit, remaining: record.limit - log.length };
  }
}
