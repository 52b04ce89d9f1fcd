import { describe, expect, it } from 'vitest';
import {
  CLIENT_STALE_TIME_MS,
  DEFAULT_FRESHNESS,
  revalidateAt,
} from '../../src/shared/freshness.js';

/*
 * The caching policy's figures as the README's settings and src/server/README.md state them, and the edges of the watch for a due
 * batch. Each case here was a one-line change of freshness.ts that no test caught (the other
 * tests compare with DEFAULT_FRESHNESS itself, so a changed figure changed both sides).
 */
const MIN = 60_000;
const at = (iso: string): number => Date.parse(iso);

describe('the default policy', () => {
  it('batches at 03:00 and 10:00 UTC; 30 min fresh; 5 min watch for 90 min; 24 h stale-if-error', () => {
    expect(DEFAULT_FRESHNESS).toEqual({
      batchHoursUtc: [3, 10],
      freshMs: 30 * MIN,
      batchWatchMs: 5 * MIN,
      batchWatchWindowMs: 90 * MIN,
      staleIfErrorMs: 24 * 60 * MIN,
    });
    expect(CLIENT_STALE_TIME_MS).toBe(5 * MIN);
  });
});

describe('the watch for a due batch', () => {
  it('ends exactly 90 minutes after the due time', () => {
    const endOfWatch = at('2026-11-22T11:30:00Z');
    expect(revalidateAt(endOfWatch - 1, at('2026-11-22T03:00:00Z'))).toBe(endOfWatch - 1 + 5 * MIN);
    expect(revalidateAt(endOfWatch, at('2026-11-22T03:00:00Z'))).toBe(endOfWatch + 30 * MIN);
  });

  it('does not apply to an answer without as_of', () => {
    const justAfter = at('2026-11-22T10:02:00Z');
    expect(revalidateAt(justAfter, null)).toBe(justAfter + 30 * MIN);
  });
});
