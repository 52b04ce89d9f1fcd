/** Concurrent identical work runs once: every caller of the same key shares one promise. */
export class SingleFlight {
  readonly #flights = new Map<string, Promise<unknown>>();

  has(key: string): boolean {
    return this.#flights.has(key);
  }

  run<T>(key: string, work: () => Promise<T>): { promise: Promise<T>; joined: boolean } {
    const existing = this.#flights.get(key) as Promise<T> | undefined;
    if (existing) return { promise: existing, joined: true };
    const promise = work().finally(() => this.#flights.delete(key));
    this.#flights.set(key, promise);
    return { promise, joined: false };
  }

  /** Settles when every flight in progress has (for graceful close and tests). */
  async idle(): Promise<void> {
    while (this.#flights.size > 0) {
      await Promise.allSettled([...this.#flights.values()]);
    }
  }
}
