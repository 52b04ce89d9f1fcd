/**
 * A demo upstream clock that stands still until the test releases the next batch: the demo's
 * `now` for a fast batch clock of `intervalMs`. A test waits for the replicas to notice a batch it
 * released (every FRESH_SECONDS) instead of for the next one of a real 20–30 s interval, and
 * knows what happens between batches. Its time starts `behind` batches in the past, so an `as_of`
 * is never ahead of the replicas' own clocks; frozen time also keeps every request the demo
 * counts in one quota hour, the strictest reading of the key's limit.
 */
export interface BatchRelease {
  /** The demo upstream's `now`. */
  now: () => number;
  /** Moves the demo's time to the start of its next batch. */
  next(): void;
}

export function batchRelease(intervalMs: number, behind = 10): BatchRelease {
  // One second into a batch: the demo's batch at `now` is the one that started then.
  let time = (Math.floor(Date.now() / intervalMs) - behind) * intervalMs + 1_000;
  return {
    now: () => time,
    next: () => {
      time += intervalMs;
    },
  };
}
