import type { FastifyBaseLogger } from 'fastify';
import { revalidateAt, type FreshnessPolicy } from '../../shared/freshness.js';
import { ClientLimitError } from '../client-limit.js';
import { UpstreamError } from '../upstream/errors.js';
import type { Purpose } from '../upstream/quota.js';
import { parseAsOf, type BatchTracker } from './batch.js';
import { SingleFlight } from './single-flight.js';
import type { CacheEntry, CacheStore } from './store.js';

export interface Fetched<V> {
  value: V;
  /** The answer's `as_of`; null for answers without one (a 404 is dated by the batch in force). */
  asOfText: string | null;
  methodologyVersion?: string | null;
  size: number;
}

export interface ResourceSpec<V> {
  key: string;
  fetch(purpose: Purpose): Promise<Fetched<V>>;
}

export type Outcome = 'hit' | 'miss' | 'stale';

export interface Loaded<V> {
  entry: CacheEntry<V>;
  outcome: Outcome;
  staleReason: string | null;
}

/** Called before this request makes the BFF ask the upstream itself (not when joining). */
export type MissGuard = () => void;

interface Failure {
  error: UpstreamError;
  at: number;
  count: number;
}

const BACKOFF_BASE_MS = 5_000;
const BACKOFF_MAX_MS = 5 * 60_000;

/**
 * Fresh → served. Missing → fetched once however many ask (single-flight). Past its freshness →
 * served while a background refresh runs (stale-while-revalidate); an entry of the newest known
 * batch is re-confirmed by one cheap probe rather than re-fetched, because same `as_of` means
 * same data. Outdated (a newer batch exists) → fetched again, or served stale if that fails.
 * After a failed refresh the last good answer is served, flagged, up to `staleIfErrorMs`; failed
 * keys back off, so an outage costs a handful of requests, not one per page view.
 */
export class ResourceCache {
  readonly #flights = new SingleFlight();
  readonly #failures = new Map<string, Failure>();
  /** revalidateAt() per entry and last check, so a hit does no calendar arithmetic. */
  readonly #due = new WeakMap<CacheEntry, { checkedAt: number; due: number }>();
  #onFetched: (entry: CacheEntry) => void = () => {};

  constructor(
    private readonly store: CacheStore,
    private readonly batch: BatchTracker,
    private readonly policy: FreshnessPolicy,
    private readonly now: () => number,
    private readonly probe: () => ResourceSpec<unknown>,
    private readonly logger: FastifyBaseLogger,
  ) {}

  /** Called with every answer fetched from the upstream (the history's event archive). */
  onFetched(listener: (entry: CacheEntry) => void): void {
    this.#onFetched = listener;
  }

  async load<V>(spec: ResourceSpec<V>, guard: MissGuard): Promise<Loaded<V>> {
    const now = this.now();
    const entry = this.store.get<V>(spec.key);
    if (!entry || now > this.servableUntil(entry)) {
      return { entry: await this.#fetchNow(spec, guard), outcome: 'miss', staleReason: null };
    }
    const state = this.classify(entry, now);
    if (state === 'fresh') return { entry, outcome: 'hit', staleReason: null };
    if (state === 'outdated') {
      try {
        return { entry: await this.#fetchNow(spec, guard), outcome: 'miss', staleReason: null };
      } catch (error) {
        if (!(error instanceof UpstreamError || error instanceof ClientLimitError)) throw error;
        const reason = `A newer batch exists but could not be fetched: ${error.message}`;
        return { entry, outcome: 'stale', staleReason: reason };
      }
    }
    const target = this.#revalidationTarget(spec, entry);
    this.refreshInBackground(target);
    const failure = this.#failures.get(target.key);
    if (failure && failure.at >= this.#dueAt(entry)) {
      return { entry, outcome: 'stale', staleReason: failure.error.message };
    }
    return { entry, outcome: 'hit', staleReason: null };
  }

  /** The newest cached answer for a key if it can still be served at all (for derived data). */
  peek<V>(key: string): CacheEntry<V> | undefined {
    const entry = this.store.get<V>(key);
    return entry && this.now() <= this.servableUntil(entry) ? entry : undefined;
  }

  classify(entry: CacheEntry, now: number): 'fresh' | 'revalidate' | 'outdated' {
    const b = this.batch.state;
    if (
      entry.asOf !== null &&
      b.latestAsOf !== null &&
      entry.asOf < b.latestAsOf &&
      b.firstSeenAt !== null &&
      entry.fetchedAt < b.firstSeenAt
    ) {
      return 'outdated';
    }
    return now < this.#dueAt(entry) ? 'fresh' : 'revalidate';
  }

  /** Last good data may be served until then (stale-if-error), counted from its last check. */
  servableUntil(entry: CacheEntry): number {
    return this.#checkedAt(entry) + this.policy.staleIfErrorMs;
  }

  /** When the probe (the batch check) is next due; null before any data. */
  nextCheckAt(): number | null {
    const probe = this.store.get(this.probe().key);
    return probe ? this.#dueAt(probe) : null;
  }

  refreshInBackground(spec: ResourceSpec<unknown>): void {
    if (this.#flights.has(spec.key) || this.#backingOff(spec.key)) return;
    const { promise } = this.#flights.run(spec.key, () => this.#fetchAndStore(spec, 'background'));
    promise.catch(() => {
      // Recorded in #failures; the stale entry keeps being served.
    });
  }

  idle(): Promise<void> {
    return this.#flights.idle();
  }

  async #fetchNow<V>(spec: ResourceSpec<V>, guard: MissGuard): Promise<CacheEntry<V>> {
    if (!this.#flights.has(spec.key)) {
      const failure = this.#failures.get(spec.key);
      if (failure && this.#backingOff(spec.key)) {
        throw failure.error.replayed(this.#backoffUntil(failure) - this.now());
      }
      guard();
    }
    return this.#flights.run(spec.key, () => this.#fetchAndStore(spec, 'interactive')).promise;
  }

  async #fetchAndStore<V>(spec: ResourceSpec<V>, purpose: Purpose): Promise<CacheEntry<V>> {
    try {
      const fetched = await spec.fetch(purpose);
      const now = this.now();
      if (fetched.asOfText !== null) {
        if (this.batch.observe(fetched.asOfText, now, fetched.methodologyVersion)) {
          this.logger.info({ as_of: fetched.asOfText }, 'new upstream batch seen');
        }
      }
      const asOf = parseAsOf(fetched.asOfText) ?? this.batch.state.latestAsOf;
      const entry: CacheEntry<V> = {
        key: spec.key,
        fetchedAt: now,
        asOf,
        value: fetched.value,
        size: fetched.size,
      };
      this.store.set(entry);
      this.#failures.delete(spec.key);
      this.#onFetched(entry);
      return entry;
    } catch (error) {
      if (error instanceof UpstreamError) {
        const previous = this.#failures.get(spec.key);
        const count = error.sent ? (previous?.count ?? 0) + 1 : (previous?.count ?? 0);
        this.#failures.set(spec.key, { error, at: this.now(), count });
      }
      throw error;
    }
  }

  #revalidationTarget(spec: ResourceSpec<unknown>, entry: CacheEntry): ResourceSpec<unknown> {
    const probe = this.probe();
    const sameBatch = entry.asOf !== null && entry.asOf === this.batch.state.latestAsOf;
    return sameBatch && spec.key !== probe.key ? probe : spec;
  }

  /** Last time this entry's data was known current: fetched, or its batch confirmed since. */
  #checkedAt(entry: CacheEntry): number {
    const { latestAsOf, confirmedAt } = this.batch.state;
    const sameBatch = entry.asOf !== null && entry.asOf === latestAsOf && confirmedAt !== null;
    return sameBatch ? Math.max(entry.fetchedAt, confirmedAt) : entry.fetchedAt;
  }

  #dueAt(entry: CacheEntry): number {
    const checkedAt = this.#checkedAt(entry);
    const memo = this.#due.get(entry);
    if (memo?.checkedAt === checkedAt) return memo.due;
    const due = revalidateAt(checkedAt, entry.asOf, this.policy);
    this.#due.set(entry, { checkedAt, due });
    return due;
  }

  #backoffUntil(failure: Failure): number {
    const wait = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, failure.count - 1));
    return failure.at + wait;
  }

  /** Only failures of a request actually sent back off; "not now" verdicts are re-asked freely. */
  #backingOff(key: string): boolean {
    const failure = this.#failures.get(key);
    if (!failure || !failure.error.sent) return false;
    if (failure.error.errorClass === 'rate_limited') return false;
    return this.now() < this.#backoffUntil(failure);
  }
}
