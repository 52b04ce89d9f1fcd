import type { FastifyBaseLogger } from 'fastify';
import { LRUCache } from 'lru-cache';
import { revalidateAt, type FreshnessPolicy } from '../../shared/freshness.js';
import { ClientLimitError } from '../client-limit.js';
import { UpstreamError } from '../upstream/errors.js';
import type { Purpose } from '../upstream/quota.js';
import { parseAsOf, type BatchTracker } from './batch.js';
import { SingleFlight } from './single-flight.js';
import type { CacheEntry, CacheEntries } from './entries.js';
import type { RenderedBodies } from './rendered-bodies.js';

export interface Fetched<V> {
  value: V;
  /** When another replica fetched it (an answer taken from the shared cache); else now. */
  fetchedAt?: number;
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

/**
 * Called before this request makes the BFF ask the upstream itself (not when joining); throws
 * (or rejects) to refuse. May return a refund, called when the miss ended up sending nothing.
 */
export type Refund = () => void;
export type MissGuard = () => void | Refund | Promise<void | Refund>;

/**
 * Where a fetch goes: straight to the upstream (one process), or first to the answers other
 * replicas already fetched, with one replica fetching at a time per key (replicas/shared-answers.ts).
 * `wanted` tells whether a shared answer is as good as a fetch now (fresh, of the newest batch).
 */
export interface AnswerSource {
  /** The answer another replica fetched, when it is as good as fetching now (no upstream). */
  lookup?<V>(
    key: string,
    wanted: (answer: { fetchedAt: number; asOf: number | null }) => boolean,
  ): Promise<Fetched<V> | null>;
  fetch<V>(
    spec: ResourceSpec<V>,
    purpose: Purpose,
    wanted: (answer: { fetchedAt: number; asOf: number | null }) => boolean,
  ): Promise<Fetched<V>>;
}

export const DIRECT: AnswerSource = { fetch: (spec, purpose) => spec.fetch(purpose) };

interface Failure {
  error: UpstreamError;
  at: number;
}

/** A "check now": started (settles when the probe has answered), or refused for `waitMs`. */
export type CheckNow = { started: true; done: Promise<void> } | { started: false; waitMs: number };

/** Last failure per key, for stale reasons; as many as the entries can hold is plenty. */
const MAX_FAILURES = 2000;

/**
 * Fresh → served. Missing → fetched once however many ask (single-flight). Past its freshness →
 * served while a background refresh runs (stale-while-revalidate); an entry of the newest known
 * batch is re-confirmed by one cheap probe rather than re-fetched, because same `as_of` means
 * same data. Outdated (a newer batch exists) → fetched again, or served stale if that fails.
 * After a failed refresh the last good answer is served, flagged, up to `staleIfErrorMs`. How
 * often a failing upstream is asked is the upstream client's circuit breaker's business (one
 * for all resources), so an outage costs a handful of requests, not one per page view.
 */
export class ResourceCache {
  readonly #flights = new SingleFlight();
  /** Reads of another replica's answer in progress (replicas only). */
  readonly #lookups = new SingleFlight();
  /** Keys whose first miss is waiting for the miss guard's answer (bounded by flights). */
  readonly #guarding = new Map<string, Promise<void>>();
  readonly #failures = new LRUCache<string, Failure>({ max: MAX_FAILURES });
  /** revalidateAt() per entry and last check, so a hit does no calendar arithmetic. */
  readonly #due = new WeakMap<CacheEntry, { checkedAt: number; due: number }>();
  /** Entries taken from another replica's fetch (no upstream request of ours). */
  readonly #adopted = new WeakSet<CacheEntry>();
  #onFetched: (entry: CacheEntry) => void = () => {};
  readonly #newBatchListeners: Array<(asOfText: string) => void> = [];

  constructor(
    private readonly entries: CacheEntries,
    private readonly batch: BatchTracker,
    private readonly policy: FreshnessPolicy,
    private readonly now: () => number,
    private readonly probe: () => ResourceSpec<unknown>,
    private readonly logger: FastifyBaseLogger,
    private readonly source: AnswerSource = DIRECT,
  ) {}

  /** The bodies rendered from the answers held here: the same cache, not a second one. */
  get rendered(): RenderedBodies {
    return this.entries.rendered;
  }

  /** What is worked out once from an answer (a parsed CSV), held and dropped with it. */
  derived<T>(entry: CacheEntry, kind: string, build: () => T): T {
    return this.entries.derived(entry, kind, build);
  }

  /** Called with every answer fetched from the upstream (the history's event archive). */
  onFetched(listener: (entry: CacheEntry) => void): void {
    this.#onFetched = listener;
  }

  /** Called when an answer shows a batch newer than any seen (replicas tell each other). */
  onNewBatch(listener: (asOfText: string) => void): void {
    this.#newBatchListeners.push(listener);
  }

  /**
   * The entry for `spec` when it is fresh, without a promise: the hot path of a cached answer
   * (a route answers in the same turn). Null when `load` has anything to decide (missing, past
   * its freshness, outdated): the caller then goes through `load`, which sees the same state.
   */
  fresh<V>(spec: ResourceSpec<V>): Loaded<V> | null {
    const entry = this.entries.get<V>(spec.key);
    if (!entry) return null;
    const now = this.now();
    if (now > this.servableUntil(entry) || this.classify(entry, now) !== 'fresh') return null;
    return { entry, outcome: 'hit', staleReason: null };
  }

  async load<V>(spec: ResourceSpec<V>, guard: MissGuard): Promise<Loaded<V>> {
    const hit = this.fresh(spec);
    if (hit) return hit;
    const now = this.now();
    const entry = this.entries.get<V>(spec.key);
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
    const entry = this.entries.get<V>(key);
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
    const probe = this.entries.get(this.probe().key);
    return probe ? this.#dueAt(probe) : null;
  }

  /**
   * A person's "check now": one probe for a new batch, unless the batch was checked less than
   * `minGapMs` ago (by anyone: the gap is for everyone together, so a room of people pressing
   * the button costs one request). The probe is background work, so the budget's reserve for
   * people's pages still holds. Returns when the next check may be asked for.
   */
  checkNow(minGapMs: number): CheckNow {
    const now = this.now();
    const probe = this.probe();
    const entry = this.entries.get(probe.key);
    const lastCheck = entry ? this.#checkedAt(entry) : null;
    if (lastCheck !== null && now - lastCheck < minGapMs) {
      return { started: false, waitMs: lastCheck + minGapMs - now };
    }
    const { promise } = this.#flights.run(probe.key, () =>
      this.#fetchAndStore(probe, 'background'),
    );
    return { started: true, done: promise.then(() => undefined) };
  }

  refreshInBackground(spec: ResourceSpec<unknown>): void {
    if (this.#flights.has(spec.key)) return;
    const { promise } = this.#flights.run(spec.key, () => this.#fetchAndStore(spec, 'background'));
    promise.catch(() => {
      // Recorded in #failures; the stale entry keeps being served.
    });
  }

  async idle(): Promise<void> {
    await this.#lookups.idle();
    await this.#flights.idle();
  }

  async #fetchNow<V>(spec: ResourceSpec<V>, guard: MissGuard): Promise<CacheEntry<V>> {
    // What another replica already fetched is taken before anything is counted against this
    // client (one read for everyone asking at once).
    if (this.source.lookup && !this.#flights.has(spec.key)) {
      const shared = await this.#lookups.run(spec.key, () => this.#takeShared(spec)).promise;
      if (shared) return shared;
    }
    // Requests for a key whose first asker is still being let through (a shared limit asks the
    // database) wait for that flight instead of being counted themselves.
    for (let pending = this.#guarding.get(spec.key); pending;) {
      await pending;
      pending = this.#flights.has(spec.key) ? undefined : this.#guarding.get(spec.key);
    }
    let refund: Refund | undefined;
    if (!this.#flights.has(spec.key)) {
      const verdict = guard();
      if (verdict instanceof Promise) {
        const settled = verdict.then(
          () => undefined,
          () => undefined,
        );
        this.#guarding.set(spec.key, settled);
        try {
          refund = (await verdict) ?? undefined;
        } finally {
          this.#guarding.delete(spec.key);
        }
      } else {
        refund = verdict ?? undefined;
      }
    }
    const flight = this.#flights.run(spec.key, () => this.#fetchAndStore(spec, 'interactive'));
    if (flight.joined) refund?.();
    try {
      const entry = await flight.promise;
      // Another replica had fetched it: nothing was sent on this client's account.
      if (!flight.joined && this.#adopted.has(entry)) refund?.();
      return entry;
    } catch (error) {
      if (error instanceof UpstreamError && !error.sent && !flight.joined) refund?.();
      throw error;
    }
  }

  async #fetchAndStore<V>(spec: ResourceSpec<V>, purpose: Purpose): Promise<CacheEntry<V>> {
    try {
      const fetched = await this.source.fetch(spec, purpose, (answer) => this.#asGoodAsNew(answer));
      return this.#keep(spec, fetched);
    } catch (error) {
      if (error instanceof UpstreamError) this.#failures.set(spec.key, { error, at: this.now() });
      throw error;
    }
  }

  /** Another replica's answer, kept as if fetched; null when there is none as good as new. */
  async #takeShared<V>(spec: ResourceSpec<V>): Promise<CacheEntry<V> | null> {
    const found = await this.source.lookup?.<V>(spec.key, (answer) => this.#asGoodAsNew(answer));
    return found ? this.#keep(spec, found) : null;
  }

  #keep<V>(spec: ResourceSpec<V>, fetched: Fetched<V>): CacheEntry<V> {
    const now = this.now();
    const fetchedAt = Math.min(fetched.fetchedAt ?? now, now);
    if (fetched.asOfText !== null) {
      if (this.batch.observe(fetched.asOfText, fetchedAt, fetched.methodologyVersion)) {
        this.logger.info({ as_of: fetched.asOfText }, 'new upstream batch seen');
        for (const listener of this.#newBatchListeners) listener(fetched.asOfText);
      }
    }
    const asOf = parseAsOf(fetched.asOfText) ?? this.batch.state.latestAsOf;
    const entry: CacheEntry<V> = {
      key: spec.key,
      fetchedAt,
      asOf,
      value: fetched.value,
      size: fetched.size,
    };
    this.entries.set(entry);
    this.#failures.delete(spec.key);
    if (fetched.fetchedAt === undefined) this.#onFetched(entry);
    else this.#adopted.add(entry);
    return entry;
  }

  /** A shared answer is as good as fetching now when it is fresh and of the newest batch. */
  #asGoodAsNew(answer: { fetchedAt: number; asOf: number | null }): boolean {
    const { latestAsOf, confirmedAt } = this.batch.state;
    if (answer.asOf !== null && latestAsOf !== null && answer.asOf < latestAsOf) return false;
    // An answer of the batch still current counts from when that batch was last confirmed, as
    // this replica's own entries do: same `as_of`, same data.
    const sameBatch = answer.asOf !== null && answer.asOf === latestAsOf && confirmedAt !== null;
    const checkedAt = sameBatch ? Math.max(answer.fetchedAt, confirmedAt) : answer.fetchedAt;
    return this.now() < revalidateAt(checkedAt, answer.asOf, this.policy);
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
}
