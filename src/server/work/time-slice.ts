import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * How long one slice of heavy work may hold the main thread before it lets sockets and timers
 * run: half the 20 ms the issue allows (issue 29), so one slice plus one cached answer still fit.
 */
export const SLICE_MS = 10;

/**
 * Chunk-and-yield for loops over user data or history on the main thread: call `pause()` between
 * items; it yields a turn of the event loop (setImmediate, after I/O) once the slice has run for
 * `budgetMs`, and costs a clock read otherwise. Used where the work needs the store (PGlite is
 * one WASM instance on this thread) or the data already lives here, so a worker would copy more
 * than it saves.
 */
export class TimeSlice {
  #started = performance.now();

  constructor(private readonly budgetMs: number = SLICE_MS) {}

  /** True when this slice has used its time (a loop may then call `yieldNow`). */
  get spent(): boolean {
    return performance.now() - this.#started >= this.budgetMs;
  }

  /** Yields when the slice is spent; else returns at once (no promise allocated). */
  pause(): Promise<void> | undefined {
    return this.spent ? this.yieldNow() : undefined;
  }

  /** Lets the event loop run (sockets, timers), then starts a new slice. */
  async yieldNow(): Promise<void> {
    await nextTurn();
    this.#started = performance.now();
  }
}
