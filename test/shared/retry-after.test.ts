import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../src/shared/retry-after.js';

/* The one Retry-After parser (the BFF's upstream client and webhook sender, the SPA). */
const now = Date.UTC(2026, 10, 23, 12, 0, 0);

describe('parseRetryAfter', () => {
  it('reads delay-seconds, spaces around them allowed', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 7 ', now)).toBe(7_000);
    expect(parseRetryAfter('0', now)).toBe(0);
  });

  it('reads an HTTP date as the time until it, a past one as 0', () => {
    expect(parseRetryAfter('Mon, 23 Nov 2026 12:01:30 GMT', now)).toBe(90_000);
    expect(parseRetryAfter('Mon, 23 Nov 2026 11:00:00 GMT', now)).toBe(0);
  });

  it('gives null for nothing, an empty value, or words', () => {
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter('', now)).toBeNull();
    expect(parseRetryAfter('later', now)).toBeNull();
    // Digits inside other text are not delay-seconds (V8 reads this one as a date in 2001).
    expect(parseRetryAfter('soon 5', now)).toBe(0);
  });
});
