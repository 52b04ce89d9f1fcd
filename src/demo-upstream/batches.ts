import { HOUR_MS, DAY_MS } from '../shared/durations.js';

/**
 * The batch clock. By default batches run at 03:00 and 10:00 UTC (the documented schedule);
 * with `intervalMs` (the fast clock for tests and demonstrations) a batch starts every
 * `intervalMs` from the epoch. Batches are numbered, so any batch can be generated directly.
 */
export interface BatchClock {
  /** Index of the latest batch at or before `time` (epoch ms). */
  indexAt(time: number): number;
  /** When batch `index` ran (epoch ms); this is its `as_of`. */
  timeOf(index: number): number;
}

const BATCH_HOURS_UTC = [3, 10] as const;

export const documentedBatchClock: BatchClock = {
  indexAt(time) {
    const day = Math.floor(time / DAY_MS);
    const hour = (time - day * DAY_MS) / HOUR_MS;
    if (hour >= BATCH_HOURS_UTC[1]) return day * 2 + 1;
    if (hour >= BATCH_HOURS_UTC[0]) return day * 2;
    return day * 2 - 1;
  },
  timeOf(index) {
    const day = Math.floor(index / 2);
    const slot = index - day * 2;
    return day * DAY_MS + BATCH_HOURS_UTC[slot === 0 ? 0 : 1] * HOUR_MS;
  },
};

export function fastBatchClock(intervalMs: number): BatchClock {
  if (!Number.isInteger(intervalMs) || intervalMs < 1) {
    throw new Error(`batchIntervalMs must be a positive integer (got ${intervalMs})`);
  }
  return {
    indexAt: (time) => Math.floor(time / intervalMs),
    timeOf: (index) => index * intervalMs,
  };
}

/** How many batches back the batch of "yesterday" (in force 24 h before batch `index`) is. */
export function yesterdayIndex(clock: BatchClock, index: number): number {
  return clock.indexAt(clock.timeOf(index) - DAY_MS);
}
