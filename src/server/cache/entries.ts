import { LRUCache } from 'lru-cache';

/**
 * One cached upstream resource. `value` is JSON-serialisable (it is persisted as is); derived
 * forms (pre-serialised bodies, indexes) hang off the entry object in WeakMaps, so they live
 * exactly as long as the entry and never reach the disk.
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

/** Bounded in entries (CACHE_MAX_ENTRIES) and in bytes; least recently used goes first. */
export class CacheEntries {
  readonly #lru: LRUCache<string, CacheEntry>;
  #onChange: () => void = () => {};

  constructor(maxEntries: number, maxBytes: number) {
    this.#lru = new LRUCache<string, CacheEntry>({
      max: maxEntries,
      maxSize: maxBytes,
      sizeCalculation: (entry) => Math.max(1, entry.size),
    });
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
