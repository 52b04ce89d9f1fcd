import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/demo-harness.js';

const HOUR = 3_600_000;

describe('demo upstream: per-key limits over a sliding 60 minutes', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  async function spend(key: string, count: number, path = '/api/v1/hotspots?limit=1') {
    const statuses: number[] = [];
    for (let i = 0; i < count; i += 1) statuses.push((await h.get(path, key)).status);
    return statuses;
  }

  it.each([
    ['Pro', 50],
    ['Team', 100],
    ['Enterprise', 250],
    ['Custom', 1000],
  ] as const)('gives a %s key %i requests per hour', async (tier, limit) => {
    const key = h.upstream.issueKey(tier);
    const response = await h.get('/api/v1/hotspots?limit=1', key);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-limit')).toBe(String(limit));
    expect(response.headers.get('x-ratelimit-remaining')).toBe(String(limit - 1));
  });

  it('honours a configured Custom limit', async () => {
    const key = h.upstream.issueKey('Custom', { limit: 3 });
    expect(await spend(key, 4)).toEqual([200, 200, 200, 429]);
  });

  it('counts hotspot list, country detail and export alike, 1 each, and sends the headers on each', async () => {
    const key = h.upstream.issueKey('Pro');
    const paths = [
      '/api/v1/hotspots',
      '/api/v1/country/UKR',
      '/api/v1/export',
      '/api/v1/export?format=json',
    ];
    const remaining: string[] = [];
    for (const path of paths) {
      const response = await h.get(path, key);
      expect(response.status).toBe(200);
      expect(response.headers.get('x-ratelimit-limit')).toBe('50');
      remaining.push(response.headers.get('x-ratelimit-remaining') ?? 'missing');
    }
    expect(remaining).toEqual(['49', '48', '47', '46']);
  });

  it('limits per key: exhausting one Pro key leaves another of the same tier untouched', async () => {
    const first = h.upstream.issueKey('Pro');
    const second = h.upstream.issueKey('Pro');
    await spend(first, 50);
    expect((await h.get('/api/v1/hotspots', first)).status).toBe(429);
    const other = await h.get('/api/v1/hotspots', second);
    expect(other.status).toBe(200);
    expect(other.headers.get('x-ratelimit-remaining')).toBe('49');
  });

  it('answers 429 with Retry-After, both headers and the documented body', async () => {
    const key = h.upstream.issueKey('Pro');
    const start = h.clock.now;
    await spend(key, 50);
    h.clock.now = start + 10 * 60_000; // ten minutes later the oldest request has 50 min to go
    const response = await h.get('/api/v1/country/FRA', key);
    expect(response.status).toBe(429);
    expect(response.headers.get('x-ratelimit-limit')).toBe('50');
    expect(response.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(response.headers.get('retry-after')).toBe(String(50 * 60));
    const body = await response.json();
    expect(body).toEqual({
      ok: false,
      error: expect.stringMatching(/rate limit/i),
      cap: 50,
      retry_after_seconds: 50 * 60,
    });
    expect(body.retry_after_seconds).toBe(Number(response.headers.get('retry-after')));
    expect(response.headers.get('cache-control')).toBeNull();
  });

  it('slides: a slot frees exactly when the oldest request is 60 minutes old, not before', async () => {
    const key = h.upstream.issueKey('Custom', { limit: 5 });
    const start = h.clock.now;
    // Five requests one minute apart.
    for (let i = 0; i < 5; i += 1) {
      h.clock.now = start + i * 60_000;
      expect((await h.get('/api/v1/hotspots?limit=1', key)).status).toBe(200);
    }
    h.clock.now = start + HOUR - 1;
    const early = await h.get('/api/v1/hotspots?limit=1', key);
    expect(early.status).toBe(429);
    expect(early.headers.get('retry-after')).toBe('1');

    h.clock.now = start + HOUR;
    const freed = await h.get('/api/v1/hotspots?limit=1', key);
    expect(freed.status).toBe(200);
    expect(freed.headers.get('x-ratelimit-remaining')).toBe('0');

    // The next slot is the request made one minute after the first: 60 s to go, not a full hour.
    const again = await h.get('/api/v1/hotspots?limit=1', key);
    expect(again.status).toBe(429);
    expect(again.headers.get('retry-after')).toBe('60');
    h.clock.now = start + HOUR + 60_000;
    expect((await h.get('/api/v1/hotspots?limit=1', key)).status).toBe(200);
  });

  it('does not count 429 answers: waiting out Retry-After is enough however often one asked', async () => {
    const key = h.upstream.issueKey('Custom', { limit: 2 });
    const start = h.clock.now;
    expect(await spend(key, 2)).toEqual([200, 200]);
    expect(await spend(key, 10)).toEqual(new Array(10).fill(429));
    const retryAfter = Number((await h.get('/api/v1/hotspots', key)).headers.get('retry-after'));
    h.clock.now = start + retryAfter * 1000;
    const response = await h.get('/api/v1/hotspots', key);
    expect(response.status).toBe(200);
    // Both counted requests were made at `start` and have left the window; the 429s never entered.
    expect(response.headers.get('x-ratelimit-remaining')).toBe('1');
  });

  it('charges a 400 like any other call (the request was made), but not a 404 for an unknown path', async () => {
    const key = h.upstream.issueKey('Pro');
    expect(
      (await h.get('/api/v1/hotspots?limit=abc', key)).headers.get('x-ratelimit-remaining'),
    ).toBe('49');
    await h.get('/api/v1/not-an-endpoint', key);
    expect((await h.get('/api/v1/hotspots', key)).headers.get('x-ratelimit-remaining')).toBe('48');
  });
});
