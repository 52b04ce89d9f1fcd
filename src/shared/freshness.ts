import { HOUR_MS, DAY_MS } from './durations.js';

/**
 * The one caching policy of the product. The BFF decides from it when to ask the upstream again;
 * the SPA derives its `staleTime` from it, so a browser never asks sooner than the BFF would
 * refresh. The upstream regenerates data by batch (documented at 03:00 and 10:00 UTC), but the
 * schedule is not trusted to be exact: a new batch is recognised only by a new `as_of`.
 */
export interface FreshnessPolicy {
  /** UTC hours at which the upstream documents its batch runs. */
  batchHoursUtc: readonly number[];
  /** Between batches: how long a cached answer counts as fresh before one revalidation. */
  freshMs: number;
  /** After a batch is due and until its new `as_of` is seen: the shorter revalidation interval. */
  batchWatchMs: number;
  /** How long after a due batch the shorter interval applies (the batch may be late). */
  batchWatchWindowMs: number;
  /** How long the last good answer may be served while the upstream fails (stale-if-error). */
  staleIfErrorMs: number;
}

export const DEFAULT_FRESHNESS: FreshnessPolicy = {
  batchHoursUtc: [3, 10],
  freshMs: 30 * 60_000,
  batchWatchMs: 5 * 60_000,
  batchWatchWindowMs: 90 * 60_000,
  staleIfErrorMs: 24 * 60 * 60_000,
};

/** The most recent documented batch time at or before `now` (epoch ms). */
export function previousBatchDue(now: number, policy: FreshnessPolicy = DEFAULT_FRESHNESS): number {
  const dayStart = Math.floor(now / DAY_MS) * DAY_MS;
  const candidates = [-1, 0].flatMap((dayOffset) =>
    policy.batchHoursUtc.map((hour) => dayStart + dayOffset * DAY_MS + hour * HOUR_MS),
  );
  return Math.max(...candidates.filter((t) => t <= now));
}

/** The next documented batch time strictly after `now` (epoch ms). */
export function nextBatchDue(now: number, policy: FreshnessPolicy = DEFAULT_FRESHNESS): number {
  const dayStart = Math.floor(now / DAY_MS) * DAY_MS;
  const candidates = [0, 1].flatMap((dayOffset) =>
    policy.batchHoursUtc.map((hour) => dayStart + dayOffset * DAY_MS + hour * HOUR_MS),
  );
  return Math.min(...candidates.filter((t) => t > now));
}

/**
 * When data fetched at `fetchedAt` with timestamp `asOf` should be revalidated. Normally
 * `fetchedAt + freshMs`; inside the watch window of a due batch whose data we do not have yet
 * (`asOf` older than the due time), `batchWatchMs` when that is shorter; never later than the
 * next due batch, so a new batch is looked for as soon as it can exist.
 */
export function revalidateAt(
  fetchedAt: number,
  asOf: number | null,
  policy: FreshnessPolicy = DEFAULT_FRESHNESS,
): number {
  const due = previousBatchDue(fetchedAt, policy);
  const waitingForDueBatch =
    asOf !== null && asOf < due && fetchedAt - due < policy.batchWatchWindowMs;
  // The watch interval only ever shortens the wait: an operator's FRESH_SECONDS below it (a
  // closer watch between batches) holds inside the window too.
  const interval = waitingForDueBatch
    ? Math.min(policy.batchWatchMs, policy.freshMs)
    : policy.freshMs;
  return Math.min(fetchedAt + interval, Math.max(nextBatchDue(fetchedAt, policy), fetchedAt + 1));
}

/** The SPA's staleTime for BFF data: no shorter than the BFF's shortest revalidation interval. */
export const CLIENT_STALE_TIME_MS = DEFAULT_FRESHNESS.batchWatchMs;
/** How often the SPA polls `/api/status` (costs no upstream request) to notice a new `as_of`. */
export const STATUS_POLL_MS = 60_000;
