import { LRUCache } from 'lru-cache';
import { MINUTE_MS, HOUR_MS } from '../shared/durations.js';
import { ApiProblem } from './refusals.js';

/** The limits count misses over a sliding hour (the replicas' shared limiter uses it too). */
export { HOUR_MS };

/** Clients remembered at once; an address churned out forgets its count, so keep this large. */
const MAX_CLIENTS = 10_000;

/** A client asked for too many uncached things: answered 429, spends nothing. */
export class ClientLimitError extends ApiProblem {
  override name = 'ClientLimitError';
  declare readonly retryAfterMs: number;
  constructor(retryAfterMs: number, window: 'minute' | 'hour') {
    super(
      429,
      `Too many requests for data that is not cached yet from this client (its share of this ${window}'s upstream budget is used); cached data stays available`,
      retryAfterMs,
    );
  }
}

export interface ClientMissLimits {
  perMinute: number;
  /** Percent of the key's hourly limit one client may spend in an hour. */
  hourlySharePercent: number;
  /** The key's hourly limit as the quota governor knows it (or assumes it). */
  keyLimit: () => number;
}

/**
 * Per-client limits on cache misses (requests that make the BFF ask the upstream itself): a
 * sliding minute, and a sliding hour sized from the key's own budget, so one client (or two)
 * cannot spend what everyone shares. Hits, joins of a request already in flight, and static files
 * are never counted, so normal browsing is unaffected.
 */
export class ClientMissLimiter {
  readonly #clients = new LRUCache<string, number[]>({ max: MAX_CLIENTS });

  constructor(
    private readonly limits: ClientMissLimits,
    private readonly now: () => number,
  ) {}

  /** Misses one client may cause in an hour: at least one, however small the key. */
  hourlyAllowance(): number {
    const { keyLimit, hourlySharePercent } = this.limits;
    return Math.max(1, Math.floor((keyLimit() * hourlySharePercent) / 100));
  }

  /**
   * Counts one miss for `client`, or throws ClientLimitError when its share is used up. Returns
   * a refund for a miss that ended up sending nothing (refused by the governor or the circuit).
   */
  consume(client: string): () => void {
    const now = this.now();
    const recent = (this.#clients.get(client) ?? []).filter((t) => t > now - HOUR_MS);
    try {
      checkMiss(recent, now, this.limits.perMinute, this.hourlyAllowance());
    } finally {
      this.#clients.set(client, recent);
    }
    recent.push(now);
    return () => {
      const held = this.#clients.get(client);
      const at = held?.lastIndexOf(now) ?? -1;
      if (held && at >= 0) held.splice(at, 1);
    };
  }
}

/**
 * The per-client rule on one more miss, given the client's misses of the last hour (oldest
 * first): throws ClientLimitError when the hour's share or the minute's limit is used up. Shared
 * by this process's limiter and the replicas' one (replicas/shared-miss-limiter.ts).
 */
export function checkMiss(recent: number[], now: number, perMinute: number, perHour: number): void {
  if (recent.length >= perHour) {
    const oldest = recent[recent.length - perHour] ?? now;
    throw new ClientLimitError(Math.max(1000, oldest + HOUR_MS - now), 'hour');
  }
  const lastMinute = recent.filter((t) => t > now - MINUTE_MS);
  if (lastMinute.length >= perMinute) {
    throw new ClientLimitError(Math.max(1000, (lastMinute[0] ?? now) + MINUTE_MS - now), 'minute');
  }
}
