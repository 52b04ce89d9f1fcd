import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FRESHNESS,
  nextBatchDue,
  previousBatchDue,
  revalidateAt,
} from '../../src/shared/freshness.js';

const at = (iso: string): number => Date.parse(iso);
const MIN = 60_000;

describe('batch schedule', () => {
  it('finds the documented batch times around a moment', () => {
    expect(previousBatchDue(at('2026-11-22T09:59:59Z'))).toBe(at('2026-11-22T03:00:00Z'));
    expect(previousBatchDue(at('2026-11-22T10:00:00Z'))).toBe(at('2026-11-22T10:00:00Z'));
    expect(previousBatchDue(at('2026-11-22T02:00:00Z'))).toBe(at('2026-11-21T10:00:00Z'));
    expect(nextBatchDue(at('2026-11-22T10:00:00Z'))).toBe(at('2026-11-23T03:00:00Z'));
    expect(nextBatchDue(at('2026-11-22T02:59:00Z'))).toBe(at('2026-11-22T03:00:00Z'));
  });
});

describe('revalidateAt', () => {
  it('keeps data fresh for freshMs between batches', () => {
    const fetched = at('2026-11-22T12:00:00Z');
    expect(revalidateAt(fetched, at('2026-11-22T10:00:00Z'))).toBe(
      fetched + DEFAULT_FRESHNESS.freshMs,
    );
  });

  it('never keeps data past the next due batch', () => {
    const fetched = at('2026-11-22T09:50:00Z');
    expect(revalidateAt(fetched, at('2026-11-22T03:00:00Z'))).toBe(at('2026-11-22T10:00:00Z'));
  });

  it('checks more often while a due batch has not appeared, then relaxes', () => {
    const asOf = at('2026-11-22T03:00:00Z');
    const justAfter = at('2026-11-22T10:02:00Z');
    expect(revalidateAt(justAfter, asOf)).toBe(justAfter + DEFAULT_FRESHNESS.batchWatchMs);
    const muchLater = at('2026-11-22T12:00:00Z');
    expect(revalidateAt(muchLater, asOf)).toBe(muchLater + DEFAULT_FRESHNESS.freshMs);
    expect(revalidateAt(justAfter, at('2026-11-22T10:00:00Z'))).toBe(justAfter + 30 * MIN);
  });

  it('never waits longer for a due batch than between batches (FRESH_SECONDS below the watch)', () => {
    const policy = { ...DEFAULT_FRESHNESS, freshMs: 5_000 };
    const asOf = at('2026-11-22T03:00:00Z');
    const justAfter = at('2026-11-22T10:02:00Z');
    expect(revalidateAt(justAfter, asOf, policy)).toBe(justAfter + 5_000);
    expect(revalidateAt(at('2026-11-22T12:00:00Z'), asOf, policy)).toBe(
      at('2026-11-22T12:00:00Z') + 5_000,
    );
  });
});
