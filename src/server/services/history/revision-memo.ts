import { LRUCache } from 'lru-cache';

export interface MemoLimits {
  /** Entries held at once (least recently used dropped first). */
  maxEntries: number;
  /** Approximate bytes held at once: two a character of each value's JSON. */
  maxBytes: number;
}

/** What a build made, and its size as characters of JSON (measured once, when it is built). */
export interface Built<V> {
  value: V;
  chars: number;
}

/**
 * Values built from the store, valid for one store revision. A question for a newer revision
 * drops everything held (what the store answers may have changed), so stale values never stay
 * beside fresh ones; a build for an older revision is answered but not kept. Bounded in entries
 * and approximate bytes. Concurrent questions for one key share one build, and only a question
 * that builds calls `enter` (its store-query guard): a memoised value costs no query.
 */
export class RevisionMemo<V> {
  #revision = -1;
  readonly #entries: LRUCache<string, { value: V; size: number }>;
  readonly #building = new Map<string, Promise<V>>();

  constructor(limits: MemoLimits) {
    this.#entries = new LRUCache({
      max: limits.maxEntries,
      maxSize: limits.maxBytes,
      sizeCalculation: (entry) => entry.size,
    });
  }

  /** Entries and approximate bytes held now (for tests and the benchmark). */
  get entries(): number {
    return this.#entries.size;
  }
  get bytes(): number {
    return this.#entries.calculatedSize;
  }

  async get(
    revision: number,
    key: string,
    enter: () => Promise<void>,
    build: () => Promise<Built<V>>,
  ): Promise<V> {
    const ready = this.#held(revision, key);
    if (ready) return ready;
    await enter();
    // Another question may have built it, or started to, while this one waited for its turn.
    const built = this.#held(revision, key);
    if (built) return built;
    if (revision !== this.#revision) return (await build()).value;
    const promise = build().then(({ value, chars }) => {
      if (revision === this.#revision) this.#entries.set(key, { value, size: 2 * chars + 64 });
      return value;
    });
    this.#building.set(key, promise);
    const forget = (): void => {
      if (this.#building.get(key) === promise) this.#building.delete(key);
    };
    promise.then(forget, forget);
    return promise;
  }

  /** The value (or the build in progress) for `key`; moves to `revision` when it is newer. */
  #held(revision: number, key: string): V | Promise<V> | undefined {
    if (revision > this.#revision) {
      // A new batch (or any write): everything held was built from what the store was before.
      this.#entries.clear();
      this.#building.clear();
      this.#revision = revision;
    }
    if (revision !== this.#revision) return undefined;
    return this.#entries.get(key)?.value ?? this.#building.get(key);
  }
}

/**
 * A request's store-query guard taken at most once, on its first build, and given back when the
 * request is answered: a question that several memos answer counts as one query, and a question
 * all of whose parts are memoised counts none.
 */
export function lazyGuard(guard: () => Promise<() => void>): {
  enter: () => Promise<void>;
  release: () => void;
} {
  let entering: Promise<void> | null = null;
  let release: (() => void) | null = null;
  return {
    enter: () =>
      (entering ??= guard().then((done) => {
        release = done;
      })),
    release: () => release?.(),
  };
}
