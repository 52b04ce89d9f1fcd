import { LRUCache } from 'lru-cache';

const WINDOW_MS = 60_000;

/** A client asked for too many uncached things in a minute: answered 429, spends nothing. */
export class ClientLimitError extends Error {
  override name = 'ClientLimitError';
  constructor(readonly retryAfterMs: number) {
    super(
      'Too many requests for data that is not cached yet from this client; cached data stays available',
    );
  }
}

/**
 * Per-client sliding-minute limit on cache misses (requests that would make the BFF ask the
 * upstream). Hits, joins of a request already in flight, and static files are never counted, so
 * normal browsing is unaffected while one script walking every country cannot drain the budget.
 */
export class ClientMissLimiter {
  readonly #clients = new LRUCache<string, number[]>({ max: 10_000 });

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number,
  ) {}

  /** Counts one miss for `client`, or throws ClientLimitError when its minute is used up. */
  consume(client: string): void {
    const now = this.now();
    const recent = (this.#clients.get(client) ?? []).filter((t) => t > now - WINDOW_MS);
    if (recent.length >= this.perMinute) {
      this.#clients.set(client, recent);
      throw new ClientLimitError(Math.max(1000, (recent[0] ?? now) + WINDOW_MS - now));
    }
    recent.push(now);
    this.#clients.set(client, recent);
  }
}
