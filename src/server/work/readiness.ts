/**
 * Work that must finish before the process can answer the pages it serves (issue 29: the demo
 * seed, which records 90 days of history on the main thread for its first seconds): `/readyz`
 * says "not ready", with the reason, while any is pending. One per app; a hold that fails is
 * released too (its owner logs the failure; the pages answer without it).
 */
export class ReadinessHolds {
  readonly #pending = new Map<symbol, string>();

  hold(work: Promise<unknown>, reason: string): void {
    const key = Symbol(reason);
    this.#pending.set(key, reason);
    const release = (): void => {
      this.#pending.delete(key);
    };
    work.then(release, release);
  }

  /** Why the process is not ready yet, or null when nothing holds it. */
  reason(): string | null {
    for (const reason of this.#pending.values()) return reason;
    return null;
  }
}
