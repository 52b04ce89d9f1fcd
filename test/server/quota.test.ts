import { describe, expect, it } from 'vitest';
import { QuotaGovernor } from '../../src/server/upstream/quota.js';
import { HOUR, MINUTE, TestClock } from '../helpers/clock.js';

function governor(reserve = 10) {
  const clock = new TestClock();
  return { clock, quota: new QuotaGovernor(reserve, clock.now) };
}

describe('QuotaGovernor', () => {
  it('assumes the smallest paid tier (50 an hour) until the upstream tells a limit', () => {
    const { quota } = governor();
    expect(quota.limit()).toBeNull();
    expect(quota.remaining()).toBe(50);
    expect(quota.permit('background')).toEqual({ ok: true });
    // A cold start against an upstream that never answers with headers still has a ceiling.
    for (let i = 0; i < 49; i++) quota.recordSend();
    expect(quota.permit('interactive')).toEqual({ ok: true });
    quota.recordSend();
    expect(quota.permit('interactive')).toMatchObject({ ok: false });
    quota.recordHeaders(250, 240, quota.recordSend());
    expect(quota.remaining()).toBeGreaterThan(150);
  });

  it('trusts the header, corrected for requests sent since', () => {
    const { quota } = governor();
    const first = quota.recordSend();
    const second = quota.recordSend(); // in flight while the first is answered
    quota.recordHeaders(50, 30, first); // another seat has used 19 of this key's requests
    expect(quota.remaining()).toBe(29);
    quota.recordSend();
    expect(quota.remaining()).toBe(28);
    quota.recordHeaders(50, 28, second); // an older answer arriving late changes nothing
    expect(quota.remaining()).toBe(27);
    expect(quota.usedLast60Min()).toBe(3);
  });

  it('trusts its own log when that is stricter, and lets requests leave the sliding window', () => {
    const { clock, quota } = governor();
    for (let i = 0; i < 10; i++) {
      quota.recordSend();
      clock.advance(MINUTE);
    }
    quota.recordHeaders(50, 45, 10); // stale or generous header
    expect(quota.remaining()).toBe(40);
    clock.advance(HOUR - 5 * MINUTE); // the first six sends have left the window
    expect(quota.usedLast60Min()).toBe(4);
    expect(quota.remaining()).toBe(46);
  });

  it('keeps the reserve for interactive misses', () => {
    const { quota } = governor(10);
    quota.recordHeaders(50, 11, quota.recordSend());
    expect(quota.permit('background')).toEqual({ ok: true });
    quota.recordSend();
    expect(quota.remaining()).toBe(10);
    expect(quota.permit('background')).toMatchObject({
      ok: false,
      reason: "refresh held back: this hour's last requests are kept for people opening pages",
    });
    expect(quota.permit('interactive')).toEqual({ ok: true });
  });

  it('never lets an interactive request cause a 429: at zero it says how long to wait', () => {
    const { clock, quota } = governor(0);
    quota.recordHeaders(2, 1, quota.recordSend());
    clock.advance(10 * MINUTE);
    quota.recordSend();
    const refused = quota.permit('interactive');
    expect(refused).toMatchObject({ ok: false, retryAfterMs: 50 * MINUTE });
  });

  it('caps the reserve at half the limit, so a small key still refreshes', () => {
    const { quota } = governor(10);
    quota.recordHeaders(6, 6, 0);
    expect(quota.effectiveReserve()).toBe(3);
    expect(quota.permit('background')).toEqual({ ok: true });
  });

  it('a 429 blocks every request until Retry-After has passed', () => {
    const { clock, quota } = governor();
    quota.recordHeaders(50, 40, 0);
    quota.block(120_000);
    expect(quota.permit('interactive')).toMatchObject({ ok: false, retryAfterMs: 120_000 });
    clock.advance(119_000);
    expect(quota.permit('interactive')).toMatchObject({ ok: false, retryAfterMs: 1000 });
    clock.advance(1000);
    expect(quota.permit('interactive')).toEqual({ ok: true });
  });

  it('survives a restart through its snapshot', () => {
    const { clock, quota } = governor();
    quota.recordHeaders(50, 49, quota.recordSend());
    quota.block(60_000);
    const again = new QuotaGovernor(10, clock.now);
    again.restore(quota.snapshot());
    expect(again.usedLast60Min()).toBe(1);
    expect(again.remaining()).toBe(49);
    expect(again.blockedUntil()).toBe(clock.t + 60_000);
  });
});
