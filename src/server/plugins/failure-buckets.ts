import { LRUCache } from 'lru-cache';
import { MINUTE_MS } from '../../shared/durations.js';

/** Keys (client addresses) whose buckets are remembered; the least recently seen go first. */
const MAX_KEYS = 10_000;

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * A token bucket per key for things that cost something when they fail (a failed sign-in
 * callback writes an audit entry): `burst` failures at once, refilled at `perMinute`. Only
 * failures take a token, so a person's own sign-in is never refused because of others.
 */
export class FailureBuckets {
  readonly #buckets = new LRUCache<string, Bucket>({ max: MAX_KEYS });

  constructor(
    private readonly burst: number,
    private readonly perMinute: number,
    private readonly now: () => number,
  ) {}

  #current(key: string): Bucket {
    const now = this.now();
    const held = this.#buckets.get(key) ?? { tokens: this.burst, at: now };
    const refilled = Math.min(
      this.burst,
      held.tokens + ((now - held.at) * this.perMinute) / MINUTE_MS,
    );
    return { tokens: refilled, at: now };
  }

  /** Milliseconds until this key may fail again, or 0. */
  blockedFor(key: string): number {
    const { tokens } = this.#current(key);
    return tokens >= 1 ? 0 : Math.ceil(((1 - tokens) * MINUTE_MS) / this.perMinute);
  }

  /** Takes a token for one failure; false (nothing taken) when the bucket is empty. */
  take(key: string): boolean {
    const bucket = this.#current(key);
    if (bucket.tokens < 1) {
      this.#buckets.set(key, bucket);
      return false;
    }
    this.#buckets.set(key, { tokens: bucket.tokens - 1, at: bucket.at });
    return true;
  }
}
