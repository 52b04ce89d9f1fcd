import { describe, expect, it } from 'vitest';
import { ClientLimitError, ClientMissLimiter, HOUR_MS } from '../../src/server/client-limit.js';

/*
 * The per-client limit on cache misses at its edges: the sliding minute and hour at their
 * instants, the hour's share of the key's limit rounded down (at least one), the wait each
 * refusal names, refunds, and clients counted apart.
 */
const MINUTE = 60_000;

function limiter(perMinute: number, hourlySharePercent: number, keyLimit = 50) {
  let now = 0;
  let limit = keyLimit;
  const clientLimits = new ClientMissLimiter(
    { perMinute, hourlySharePercent, keyLimit: () => limit },
    () => now,
  );
  return {
    limiter: clientLimits,
    at: (t: number) => (now = t),
    setKeyLimit: (l: number) => (limit = l),
  };
}

function refusal(consume: () => unknown): ClientLimitError {
  try {
    consume();
  } catch (error) {
    if (error instanceof ClientLimitError) return error;
    throw error;
  }
  throw new Error('the miss was allowed');
}

describe('the hourly allowance', () => {
  it('is the share of the key’s limit, rounded down, and never below one', () => {
    expect(limiter(5, 20, 50).limiter.hourlyAllowance()).toBe(10);
    expect(limiter(5, 20, 7).limiter.hourlyAllowance()).toBe(1);
    expect(limiter(5, 20, 9).limiter.hourlyAllowance()).toBe(1);
    expect(limiter(5, 20, 3).limiter.hourlyAllowance()).toBe(1);
    expect(limiter(5, 20, 0).limiter.hourlyAllowance()).toBe(1);
  });
});

describe('the sliding minute', () => {
  it('refuses the miss after perMinute, until the oldest is a full minute old', () => {
    const { limiter: l, at } = limiter(2, 100);
    at(5_000);
    l.consume('a');
    at(15_000);
    l.consume('a');
    at(5_000 + MINUTE - 1);
    const refused = refusal(() => l.consume('a'));
    expect(refused.name).toBe('ClientLimitError');
    expect(refused.retryAfterMs).toBe(1000);
    expect(refused.message).toBe(
      "Too many requests for data that is not cached yet from this client (its share of this minute's upstream budget is used); cached data stays available",
    );
    at(35_000);
    expect(refusal(() => l.consume('a')).retryAfterMs).toBe(MINUTE - 30_000);
    // Exactly a minute after the first miss it no longer counts.
    at(5_000 + MINUTE);
    expect(() => l.consume('a')).not.toThrow();
  });

  it('counts each client apart', () => {
    const { limiter: l } = limiter(1, 100);
    l.consume('a');
    expect(() => l.consume('a')).toThrow(ClientLimitError);
    expect(() => l.consume('b')).not.toThrow();
  });
});

describe('the sliding hour', () => {
  it('refuses past the allowance until the oldest counted miss is an hour old', () => {
    // 10 % of 50: 5 an hour.
    const { limiter: l, at } = limiter(100, 10);
    for (let i = 0; i < 5; i++) {
      at(i * MINUTE);
      l.consume('a');
    }
    at(10 * MINUTE);
    const refused = refusal(() => l.consume('a'));
    expect(refused.retryAfterMs).toBe(HOUR_MS - 10 * MINUTE);
    expect(refused.message).toContain("its share of this hour's upstream budget is used");
    at(HOUR_MS - 1);
    expect(refusal(() => l.consume('a')).retryAfterMs).toBe(1000);
    // Exactly an hour after the first miss it no longer counts.
    at(HOUR_MS);
    expect(() => l.consume('a')).not.toThrow();
  });

  it('names the wait for the miss that leaves the window when the key’s limit shrank', () => {
    const { limiter: l, at, setKeyLimit } = limiter(100, 10);
    for (let i = 0; i < 5; i++) {
      at(i * MINUTE);
      l.consume('a');
    }
    // 10 % of 30: 3 an hour. Five counted: the third from last must leave before one more.
    setKeyLimit(30);
    at(10 * MINUTE);
    expect(refusal(() => l.consume('a')).retryAfterMs).toBe(2 * MINUTE + HOUR_MS - 10 * MINUTE);
  });
});

describe('refunds', () => {
  it('give back the miss that sent nothing, once', () => {
    const { limiter: l, at } = limiter(1, 100);
    const refund = l.consume('a');
    refund();
    at(1);
    const second = l.consume('a');
    refund();
    expect(() => l.consume('a')).toThrow(ClientLimitError);
    second();
    expect(() => l.consume('a')).not.toThrow();
  });

  it('give back the later of two misses, and never fail for a client forgotten since', () => {
    const { limiter: l, at } = limiter(2, 100);
    l.consume('a');
    at(1);
    const later = l.consume('a');
    later();
    expect(() => l.consume('a')).not.toThrow();
    expect(() => l.consume('a')).toThrow(ClientLimitError);
    const forgotten = l.consume('b');
    // 10,000 other clients push `b` out of the limiter's memory.
    for (let i = 0; i < 10_000; i++) l.consume(`other-${i}`);
    expect(() => forgotten()).not.toThrow();
  });
});
