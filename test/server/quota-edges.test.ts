import { describe, expect, it } from 'vitest';
import {
  emptyQuotaState,
  QuotaGovernor,
  quotaStateSchema,
  type QuotaState,
} from '../../src/server/upstream/quota.js';
import { HOUR, MINUTE, TestClock } from '../helpers/clock.js';

/*
 * The quota governor's edges: the instants a request enters and leaves the sliding hour, headers
 * that say less than usual, waits that overlap, and a saved state read back. Each case here was a
 * one-line change of quota.ts that no test caught.
 */
function governor(reserve = 10) {
  const clock = new TestClock();
  return { clock, quota: new QuotaGovernor(reserve, clock.now) };
}

describe('the sliding hour, at its edges', () => {
  it('a request sent exactly an hour before the header was not in it: leaving later adds nothing', () => {
    const { clock, quota } = governor();
    quota.recordSend();
    clock.advance(HOUR);
    quota.recordHeaders(50, 10, quota.recordSend());
    clock.advance(MINUTE);
    expect(quota.remaining()).toBe(10);
  });

  it('a request counted in a header leaves the window exactly an hour after it was sent', () => {
    const { clock, quota } = governor();
    const first = quota.recordSend();
    clock.advance(MINUTE);
    quota.recordHeaders(50, 10, first);
    clock.advance(HOUR - MINUTE);
    expect(quota.remaining()).toBe(11);
  });

  it('a header an hour old or older is no longer believed', () => {
    const { clock, quota } = governor();
    quota.recordHeaders(50, 10, quota.recordSend());
    clock.advance(HOUR);
    expect(quota.remaining()).toBe(50);
  });

  it('the wait told is until the oldest request still inside the hour leaves it', () => {
    const { clock, quota } = governor(0);
    quota.recordHeaders(1, null, 0);
    quota.recordSend();
    clock.advance(5 * MINUTE);
    quota.recordSend();
    clock.advance(55 * MINUTE); // the first send is now exactly an hour old: out of the window
    expect(quota.remaining()).toBe(0);
    expect(quota.permit('interactive')).toMatchObject({ ok: false, retryAfterMs: 5 * MINUTE });
  });

  it('with nothing of ours in the hour to wait for, it suggests a minute', () => {
    const { quota } = governor(0);
    quota.recordHeaders(50, 0, 0);
    expect(quota.permit('interactive')).toMatchObject({ ok: false, retryAfterMs: 60_000 });
  });
});

describe('headers that tell less', () => {
  it('an answer without a limit header keeps the limit told before', () => {
    const { quota } = governor();
    quota.recordHeaders(250, 240, quota.recordSend());
    quota.recordHeaders(null, 239, quota.recordSend());
    expect(quota.limit()).toBe(250);
  });

  it('an answer without a remaining header keeps the last remaining told', () => {
    const { quota } = governor();
    quota.recordHeaders(50, 10, quota.recordSend());
    quota.recordHeaders(50, null, quota.recordSend());
    expect(quota.remaining()).toBe(9);
  });

  it('an older answer arriving after a newer one changes nothing', () => {
    const { quota } = governor();
    const first = quota.recordSend();
    const second = quota.recordSend();
    quota.recordHeaders(50, 20, second);
    quota.recordHeaders(50, 40, first);
    expect(quota.remaining()).toBe(20);
  });

  it('the same request told twice: the later reading is the one kept', () => {
    const { quota } = governor();
    const seq = quota.recordSend();
    quota.recordHeaders(50, 20, seq);
    quota.recordHeaders(50, 15, seq);
    expect(quota.remaining()).toBe(15);
  });
});

describe('waits and reasons', () => {
  it('a shorter 429 wait never shortens a longer one already in force', () => {
    const { clock, quota } = governor();
    quota.block(120_000);
    quota.block(10_000);
    expect(quota.blockedUntil()).toBe(clock.t + 120_000);
  });

  it('blockedUntil is null before any 429 and once the wait has passed', () => {
    const { clock, quota } = governor();
    expect(quota.blockedUntil()).toBeNull();
    quota.block(1000);
    clock.advance(1000);
    expect(quota.blockedUntil()).toBeNull();
  });

  it('each refusal says why in words', () => {
    const { quota } = governor(10);
    quota.block(1000);
    expect(quota.permit('interactive')).toMatchObject({
      reason: 'the Risk API asked us to wait (its hourly limit for this key is reached)',
    });
    const spent = governor(10).quota;
    spent.recordHeaders(50, 5, spent.recordSend());
    expect(spent.permit('background')).toMatchObject({
      reason: "refresh held back: this hour's last requests are kept for people opening pages",
    });
    spent.recordHeaders(50, 0, spent.recordSend());
    expect(spent.permit('interactive')).toMatchObject({
      reason: "this hour's upstream request budget is spent",
    });
  });

  it('tells its listener of every request sent and every wait', () => {
    const { quota } = governor();
    let changes = 0;
    quota.onChange(() => changes++);
    quota.recordSend();
    quota.block(1000);
    expect(changes).toBe(2);
  });
});

describe('the log of requests sent', () => {
  it('starts empty and forgets requests two hours old, exactly at two hours', () => {
    const { clock, quota } = governor();
    expect(quota.snapshot().sent).toEqual([]);
    quota.recordSend();
    clock.advance(2 * HOUR);
    quota.recordSend();
    expect(quota.snapshot().sent).toEqual([clock.t]);
  });

  it('a restored log is sorted and pruned, so the wait counts from the oldest request', () => {
    const { clock, quota } = governor(0);
    const state: QuotaState = {
      ...emptyQuotaState(),
      limit: 3,
      sent: [clock.t - 10 * MINUTE, clock.t - 3 * HOUR, clock.t - 50 * MINUTE, clock.t - MINUTE],
    };
    quota.restore(state);
    expect(quota.snapshot().sent).toEqual([
      clock.t - 50 * MINUTE,
      clock.t - 10 * MINUTE,
      clock.t - MINUTE,
    ]);
    expect(quota.permit('interactive')).toMatchObject({ ok: false, retryAfterMs: 10 * MINUTE });
  });

  it('a restored log of requests all past keeping is emptied', () => {
    const { clock, quota } = governor();
    quota.restore({ ...emptyQuotaState(), sent: [clock.t - 5 * HOUR, clock.t - 3 * HOUR] });
    expect(quota.snapshot().sent).toEqual([]);
  });
});

describe('a saved state read back', () => {
  it('keeps every field of a good state', () => {
    const state: QuotaState = {
      sent: [1, 2],
      limit: 50,
      headerRemaining: 10,
      headerAt: 2,
      sentSinceHeader: 1,
      blockedUntil: null,
      seq: 3,
      headerSeq: 2,
    };
    expect(quotaStateSchema.parse(state)).toEqual(state);
  });

  it('refuses negative counts', () => {
    const good = { ...emptyQuotaState(), sentSinceHeader: 1, seq: 1, headerSeq: 1 };
    expect(quotaStateSchema.safeParse(good).success).toBe(true);
    for (const field of ['sentSinceHeader', 'seq', 'headerSeq'] as const) {
      expect(quotaStateSchema.safeParse({ ...good, [field]: -1 }).success).toBe(false);
    }
  });
});
