import { afterEach, describe, expect, it } from 'vitest';
import { RenderedBodies } from '../../src/server/cache/rendered-bodies.js';
import { get, startTestStack } from '../helpers/bff.js';
import type { TestClock } from '../helpers/clock.js';
import type { Stack } from '../helpers/stack.js';

// Memory is bounded in bytes, every variant included, and random input creates no variants.
// The flood figure itself (20,000 requests, RSS, another client's p99) is a benchmark:
// scripts/bench/flood.ts, docs/benchmarks.md.

let stack: Stack & { clock: TestClock };
afterEach(async () => {
  await stack?.close();
});

async function gauge(name: string, labels = ''): Promise<number> {
  const text = (await get(stack, '/metrics')).body;
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels} `));
  if (line === undefined) throw new Error(`metric ${name}${labels} not found`);
  return Number(line.split(' ').at(-1));
}

const FLOOD = '/api/v1/hotspots?limit=50&tier=crit,high,low,mod,LABEL&include=categories,events';

describe('memory bound', () => {
  it('tier labels no batch has shown create no variant and no upstream request', async () => {
    stack = await startTestStack();
    const plain = await get(stack, FLOOD.replace(',LABEL', ''));
    expect(plain.statusCode).toBe(200);
    const variants = await gauge('grd_cache_rendered_variants');
    const bytes = await gauge('grd_cache_bytes', '{part="rendered"}');
    const requests = stack.upstream.requestCount();
    for (let i = 0; i < 300; i++) {
      const label = `x${Math.random().toString(36).slice(2, 12)}`;
      const res = await get(stack, FLOOD.replace('LABEL', label));
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-cache']).toBe('HIT');
      expect(res.headers.etag).toBe(plain.headers.etag);
    }
    expect(await gauge('grd_cache_rendered_variants')).toBe(variants);
    expect(await gauge('grd_cache_bytes', '{part="rendered"}')).toBe(bytes);
    expect(stack.upstream.requestCount()).toBe(requests);
    // Only unknown labels: matches nothing, still one shared variant.
    const none = await get(stack, '/api/v1/hotspots?tier=zzz');
    expect(none.json()).toMatchObject({ count: 0, hotspots: [] });
    const other = await get(stack, '/api/v1/hotspots?tier=yyy');
    expect(other.headers.etag).toBe(none.headers.etag);
  });

  it('rendered answers of every legitimate variant stay within their share of CACHE_MAX_MB', async () => {
    const cacheMaxBytes = 400 * 1024;
    stack = await startTestStack({ config: { data: { cacheMaxBytes } } });
    const limit = cacheMaxBytes - Math.floor(cacheMaxBytes * 0.75);
    let peak = 0;
    for (const include of ['', '&include=events', '&include=categories,events']) {
      for (let n = 1; n <= 50; n++) {
        const res = await get(stack, `/api/v1/hotspots?limit=${n}${include}`, {
          headers: { 'accept-encoding': n % 2 ? 'br' : 'gzip' },
        });
        expect(res.statusCode).toBe(200);
        peak = Math.max(peak, await gauge('grd_cache_bytes', '{part="rendered"}'));
      }
    }
    expect(peak).toBeGreaterThan(limit / 2);
    expect(peak).toBeLessThanOrEqual(limit);
    expect(await gauge('grd_cache_bytes', '{part="entries"}')).toBeLessThanOrEqual(
      cacheMaxBytes - limit,
    );
  });

  it('RenderedBodies counts compressed forms and evicts the least recently used', () => {
    const bodies = new RenderedBodies(20_000);
    const entry = { key: 'k', fetchedAt: 0, asOf: null, value: null, size: 1 };
    const text = (i: number) => ({ rows: Array.from({ length: 300 }, (_, j) => i * j) });
    for (let i = 0; i < 40; i++) {
      const record = bodies.get(entry, `v${i}`, () => text(i));
      bodies.encode(record, 'gzip');
      bodies.encode(record, 'br');
      expect(bodies.bytes).toBeLessThanOrEqual(20_000);
    }
    expect(bodies.size).toBeLessThan(40);
    let built = false;
    bodies.get(entry, 'v0', () => {
      built = true;
      return text(0);
    });
    expect(built).toBe(true);
  });
});
