import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * One full garbage collection, for after a one-off burst of allocation (the demo seed leaves
 * 150–190 MB of dead objects that V8 keeps until the next full collection, which an idle
 * process may never run). Node exposes `gc` only behind --expose-gc; the flag set at run time
 * reaches a new context's global.
 */
export function releaseMemory(): void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
}

/**
 * V8 measures its allocation rate over the last 5 s and gives its young generation back (32 MB,
 * grown during start-up and the seed, resident and empty ever after) only in a collection made
 * while that rate is low. A collection right after a burst never qualifies, so a second one
 * follows once the process has been quiet for a while.
 */
export const QUIET_AFTER_MS = 10_000;

/** {@link releaseMemory} now and again after {@link QUIET_AFTER_MS}; the timer never holds the process open. */
export function releaseMemoryNowAndWhenQuiet(): void {
  releaseMemory();
  // Only this second collection gives the young generation back (test/server/release-memory.test.ts).
  setTimeout(releaseMemory, QUIET_AFTER_MS).unref();
}
