import { LRUCache } from 'lru-cache';
import { RenderedBodies } from './rendered-bodies.js';

/**
 * One cached upstream resource. `value` is JSON-serialisable (it is persisted as is); what is
 * derived from it (the bodies rendered from it, a parsed CSV) is held beside it by `CacheEntries`,
 * lives no longer than the entry and never reaches the disk.
 */
export interface CacheEntry<V = unknown> {
  key: string;
  fetchedAt: number;
  /** `as_of` of the data in epoch ms; null when the answer carried none. */
  asOf: number | null;
  value: V;
  /** Approximate bytes held, for the LRU's size bound. */
  size: number;
}

/**
 * The answer cache's memory: the upstream answers (bounded in entries, CACHE_MAX_ENTRIES, and in
 * bytes; least recently used goes first), the bodies rendered from them (`rendered`, bounded in
 * bytes of its own) and what else is worked out once per answer (`derived`). One owner, so a
 * request meets one cache, and nothing derived outlives its answer.
 */
export class CacheEntries {
  readonly #lru: LRUCache<string, CacheEntry>;
  /** Serialised answers per entry and variant, compressed forms included. */
  readonly rendered: RenderedBodies;
  /** Keyed by the value, which a revalidated entry keeps: its derived forms stay valid. */
  readonly #derived = new WeakMap<object, Map<string, unknown>>();
  #onChange: () => void = () => {};

  /** `renderedBytes`: the rendered bodies' own bound (default: a third of the entries'). */
  constructor(maxEntries: number, maxBytes: number, renderedBytes = Math.floor(maxBytes / 3)) {
    this.#lru = new LRUCache<string, CacheEntry>({
      max: maxEntries,
      maxSize: maxBytes,
      sizeCalculation: (entry) => Math.max(1, entry.size),
    });
    this.rendered = new RenderedBodies(renderedBytes);
  }

  /**
   * What `build` works out from `entry`'s value, once per value and `kind` (a parsed export, the
   * export's bytes): the answer's own memo, dropped with it.
   */
  derived<T>(entry: CacheEntry, kind: string, build: () => T): T {
    const value = entry.value;
    const owner: object = typeof value === 'object' && value !== null ? value : entry;
    let memo = this.#derived.get(owner);
    if (!memo) {
      memo = new Map();
      this.#derived.set(owner, memo);
    }
    if (memo.has(kind)) return memo.get(kind) as T;
    const made = build();
    memo.set(kind, made);
    return made;
  }

  onChange(listener: () => void): void {
    this.#onChange = listener;
  }

  get<V>(key: string): CacheEntry<V> | undefined {
    return this.#lru.get(key) as CacheEntry<V> | undefined;
  }

  set<V>(entry: CacheEntry<V>): void {
    this.#lru.set(entry.key, entry as CacheEntry);
    this.#onChange();
  }

  /** Restores without notifying (loading from disk is not a change worth writing back). */
  restore(entries: CacheEntry[]): void {
    for (const entry of entries) this.#lru.set(entry.key, entry);
  }

  get size(): number {
    return this.#lru.size;
  }

  get bytes(): number {
    return this.#lru.calculatedSize;
  }

  /** Most recently used first (the persistence reverses it, so a restore keeps the order). */
  entries(): CacheEntry[] {
    return [...this.#lru.values()];
  }
}
