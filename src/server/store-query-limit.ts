import { LRUCache } from 'lru-cache';
import { MINUTE_MS } from '../shared/durations.js';
import { ApiProblem } from './refusals.js';

/** Clients remembered at once; an address churned out forgets its count, so keep this large. */
const MAX_CLIENTS = 10_000;
/** What a refused request is told to wait when the store is busy: a query takes milliseconds. */
const BUSY_RETRY_MS = 1000;

/** A store query refused before it ran: 429 (this client's rate) or 503 (the store is busy). */
export class StoreQueryLimitError extends ApiProblem {
  override name = 'StoreQueryLimitError';
  declare readonly status: 429 | 503;
  declare readonly retryAfterMs: number;
  constructor(status: 429 | 503, retryAfterMs: number, message: string) {
    super(status, message, retryAfterMs);
  }
}

export interface StoreQueryLimits {
  /** Store queries one client may cause per sliding minute (STORE_QUERIES_PER_MINUTE). */
  perClientPerMinute: number;
  /** Store queries running at once, process-wide (STORE_QUERIES_IN_FLIGHT). */
  inFlight: number;
  /** Store queries waiting for a slot; one more is refused with 503 (STORE_QUERY_QUEUE). */
  queue: number;
}

/** Lets one store query run; call the returned function when it has finished (idempotent). */
export type StoreQueryGuard = () => Promise<() => void>;

/**
 * Keeps history and event-archive questions (answered from the store, so never counted by the
 * upstream miss limits) from starving everyone else: a rate per client, like
 * CLIENT_MISSES_PER_MINUTE, and a bound on queries in flight with a bounded wait queue. The
 * embedded store runs each query synchronously on the main thread and settles the next queued
 * one in the same microtask run, so a long queue there holds every socket: the bound is what
 * lets cached answers through between queries. Only questions that what the history answers
 * hold for the batch does not answer pass through here, once each (services/history/): a range
 * of a series already read costs no query and is never limited.
 */
export class StoreQueryLimiter {
  readonly #clients = new LRUCache<string, number[]>({ max: MAX_CLIENTS });
  readonly #waiting: (() => void)[] = [];
  #running = 0;
  #peak = 0;
  #handOffScheduled = false;

  constructor(
    private readonly limits: StoreQueryLimits,
    private readonly now: () => number,
  ) {}

  /** Queries running now, and the most that ever ran at once (for /metrics and tests). */
  get running(): number {
    return this.#running;
  }
  get peakRunning(): number {
    return this.#peak;
  }
  get waiting(): number {
    return this.#waiting.length;
  }

  /** The guard one request's store queries go through, counted under `client`. */
  guardFor(client: string): StoreQueryGuard {
    return () => this.enter(client);
  }

  /**
   * Counts one query for `client` (429 when its minute is used up), then waits for a slot (503
   * when the queue is full, and the count is given back). Resolves to the slot's release.
   */
  async enter(client: string): Promise<() => void> {
    const refund = this.#count(client);
    if (this.#running < this.limits.inFlight && this.#waiting.length === 0) {
      this.#reserve();
      return this.#release();
    }
    // At most `queue` wait: beyond it the answer is a quick 503, not an ever longer wait.
    if (this.#waiting.length >= this.limits.queue) {
      refund();
      throw new StoreQueryLimitError(
        503,
        BUSY_RETRY_MS,
        'The history store is busy answering other questions; try again in a moment (cached data stays available)',
      );
    }
    // #handOff reserves the slot before it wakes this waiter.
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
    return this.#release();
  }

  #count(client: string): () => void {
    const now = this.now();
    const recent = (this.#clients.get(client) ?? []).filter((t) => t > now - MINUTE_MS);
    this.#clients.set(client, recent);
    const { perClientPerMinute } = this.limits;
    if (recent.length >= perClientPerMinute) {
      const oldest = recent[recent.length - perClientPerMinute] ?? now;
      throw new StoreQueryLimitError(
        429,
        Math.max(1000, oldest + MINUTE_MS - now),
        `Too many history or event-archive questions from this client (at most ${perClientPerMinute} a minute that are not already answered); cached data stays available`,
      );
    }
    recent.push(now);
    return () => {
      const at = recent.lastIndexOf(now);
      if (at >= 0) recent.splice(at, 1);
    };
  }

  /** At most `inFlight` store queries run at once: every slot is counted here before it runs. */
  #reserve(): void {
    this.#running += 1;
    this.#peak = Math.max(this.#peak, this.#running);
  }

  /** Gives a reserved slot back, once, however often it is called. */
  #release(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#running -= 1;
      this.#handOff();
    };
  }

  /**
   * Wakes waiting queries on the next turn of the event loop, not in this microtask run: sockets
   * (cached answers) get their turn between one store query and the next.
   */
  #handOff(): void {
    if (this.#handOffScheduled || this.#waiting.length === 0) return;
    this.#handOffScheduled = true;
    setImmediate(() => {
      this.#handOffScheduled = false;
      let free = this.limits.inFlight - this.#running;
      while (free > 0 && this.#waiting.length > 0) {
        free -= 1;
        this.#reserve();
        const wake = this.#waiting.shift();
        wake?.();
      }
    });
  }
}
