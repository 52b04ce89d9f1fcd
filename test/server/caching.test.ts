import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/compose/app.js';
import { CacheEntries } from '../../src/server/cache/entries.js';
import { Secret } from '../../src/server/secret.js';
import { MINUTE, TestClock } from '../helpers/clock.js';
import { get, startTestStack, upstreamRequestsDuring } from '../helpers/bff.js';
import type { Stack } from '../helpers/stack.js';
import { tempDataDir, testConfig } from '../helpers/test-config.js';

let stack: Stack & { clock: TestClock };
afterEach(async () => {
  await stack.close();
});

describe('single-flight', () => {
  it('100 concurrent identical misses make one upstream request', async () => {
    stack = await startTestStack({ demo: { faults: { latencyMs: 50 } } });
    const replies = await Promise.all(
      Array.from({ length: 100 }, () => get(stack, '/api/v1/hotspots?limit=10')),
    );
    expect(replies.every((r) => r.statusCode === 200)).toBe(true);
    expect(new Set(replies.map((r) => r.body)).size).toBe(1);
    expect(stack.upstream.requestCount()).toBe(1);
  });

  it('concurrent misses of different countries share the one export request', async () => {
    stack = await startTestStack({ demo: { faults: { latencyMs: 50 } } });
    const replies = await Promise.all(
      ['UKR', 'FRA', 'DEU', 'USA', 'CHN', 'BRA'].map((iso) => get(stack, `/api/v1/country/${iso}`)),
    );
    expect(replies.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(stack.upstream.requestCount()).toBe(1);
  });
});

describe('freshness', () => {
  it('fresh answers are hits with an Age; past freshness one probe re-confirms the batch', async () => {
    stack = await startTestStack();
    await get(stack, '/api/v1/hotspots');
    await get(stack, '/api/v1/country/UKR');
    expect(stack.upstream.requestCount()).toBe(2);

    stack.clock.advance(10 * MINUTE);
    const hit = await get(stack, '/api/v1/country/UKR');
    expect(hit.headers['x-cache']).toBe('HIT');
    expect(hit.headers.age).toBe('600');
    expect(stack.upstream.requestCount()).toBe(2);

    // Past the 30-minute freshness: served at once, and one background probe of the hotspot
    // list re-confirms the batch for every entry; the export is not fetched again.
    stack.clock.advance(25 * MINUTE);
    const served = await get(stack, '/api/v1/country/UKR');
    expect(served.statusCode).toBe(200);
    expect(served.headers['x-cache']).toBe('HIT');
    await expect.poll(() => stack.upstream.requestCount()).toBe(3);
    expect(stack.upstream.requestLog().at(-1)?.path).toBe('/api/v1/hotspots');
    const after = await upstreamRequestsDuring(stack, async () => {
      expect((await get(stack, '/api/v1/country/UKR')).headers['x-cache']).toBe('HIT');
      expect((await get(stack, '/api/countries')).headers['x-cache']).toBe('HIT');
      expect((await get(stack, '/api/v1/hotspots')).headers['x-cache']).toBe('HIT');
    });
    expect(after).toBe(0);
  });

  it('a new batch (new as_of) is picked up and older entries are fetched again', async () => {
    stack = await startTestStack({ clock: new TestClock(Date.UTC(2026, 10, 23, 9, 50)) });
    const first = (await get(stack, '/api/v1/country/UKR')).json();
    await get(stack, '/api/v1/hotspots');
    expect(first.as_of).toBe('2026-11-23T03:00:00.000Z');

    // 10:00 UTC is a documented batch time: freshness ends there, whatever is left of 30 min.
    stack.clock.set(Date.UTC(2026, 10, 23, 10, 1));
    await get(stack, '/api/v1/hotspots'); // served at once, probes in the background
    await expect
      .poll(async () => (await get(stack, '/api/status')).json().as_of)
      .toBe('2026-11-23T10:00:00.000Z');
    const hotspots = await get(stack, '/api/v1/hotspots');
    expect(hotspots.json().as_of).toBe('2026-11-23T10:00:00.000Z');
    expect(hotspots.headers['x-cache']).toBe('HIT');

    const country = await get(stack, '/api/v1/country/UKR');
    expect(country.headers['x-cache']).toBe('MISS');
    expect(country.json().as_of).toBe('2026-11-23T10:00:00.000Z');
    expect(country.json().country.risk).not.toBe(first.country.risk);
    expect(stack.upstream.requestLog().map((e) => e.path)).toEqual([
      '/api/v1/export',
      '/api/v1/hotspots',
      '/api/v1/hotspots',
      '/api/v1/export',
    ]);
  });

  it('the fast batch clock: batches every few minutes are followed by a shrunk policy', async () => {
    const interval = 10 * MINUTE;
    const clock = new TestClock(Date.UTC(2026, 10, 23, 5, 1));
    stack = await startTestStack({
      clock,
      demo: { batchIntervalMs: interval },
      config: {
        data: {
          freshness: {
            batchHoursUtc: [],
            freshMs: 2 * MINUTE,
            batchWatchMs: MINUTE,
            batchWatchWindowMs: 0,
            staleIfErrorMs: 60 * MINUTE,
          },
        },
      },
    });
    const seen = new Set<string>();
    for (let step = 0; step < 4; step++) {
      seen.add((await get(stack, '/api/v1/hotspots')).json().as_of);
      clock.advance(interval);
      await get(stack, '/api/v1/hotspots');
      await expect
        .poll(async () => (await get(stack, '/api/status')).json().as_of)
        .not.toBe([...seen].at(-1));
    }
    expect(seen.size).toBe(4);
  });
});

describe('persistence', () => {
  it('a restart on the same DATA_DIR serves from disk with zero upstream requests', async () => {
    const dataDir = tempDataDir();
    stack = await startTestStack({ config: { server: { dataDir } } });
    const before = {
      hotspots: (await get(stack, '/api/v1/hotspots?limit=7')).body,
      country: (await get(stack, '/api/v1/country/UKR')).body,
      csv: (await get(stack, '/api/v1/export')).body,
    };
    const used = (await get(stack, '/api/status')).json().quota.used_last_60min;
    await stack.app.close();

    const files = readdirSync(dataDir).sort();
    expect(files).toEqual([
      expect.stringMatching(/^cache-demo-[0-9a-f]{16}\.json$/),
      expect.stringMatching(/^quota-demo-[0-9a-f]{16}\.json$/),
    ]);
    for (const file of files) {
      expect(readFileSync(join(dataDir, file), 'utf8')).not.toContain(stack.key);
    }

    const app = (
      await buildApp(testConfig({ server: { dataDir } }), {
        upstream: { mode: 'demo', baseUrl: stack.upstream.url, apiKey: new Secret(stack.key) },
        now: stack.clock.now,
      })
    ).app;
    try {
      const spent = await upstreamRequestsDuring(stack, async () => {
        const hotspots = await app.inject('/api/v1/hotspots?limit=7');
        expect(hotspots.headers['x-cache']).toBe('HIT');
        expect(hotspots.body).toBe(before.hotspots);
        expect((await app.inject('/api/v1/country/UKR')).body).toBe(before.country);
        expect((await app.inject('/api/v1/export')).body).toBe(before.csv);
        expect((await app.inject('/readyz')).statusCode).toBe(200);
        // The quota already spent this hour is remembered too.
        expect((await app.inject('/api/status')).json().quota.used_last_60min).toBe(used);
      });
      expect(spent).toBe(0);
    } finally {
      await app.close();
    }
  });

  it('demo and live caches never mix: the file is named by mode and base-URL hash', async () => {
    const dataDir = tempDataDir();
    stack = await startTestStack({ config: { server: { dataDir } } });
    await get(stack, '/api/v1/hotspots');
    await stack.app.close();
    const live = (
      await buildApp(testConfig({ server: { dataDir } }), {
        upstream: { mode: 'live', baseUrl: stack.upstream.url, apiKey: new Secret(stack.key) },
        now: stack.clock.now,
      })
    ).app;
    try {
      const res = await live.inject('/api/v1/hotspots');
      expect(res.headers['x-cache']).toBe('MISS');
    } finally {
      await live.close();
    }
    expect(
      readdirSync(dataDir)
        .filter((f) => f.startsWith('cache-'))
        .sort(),
    ).toEqual([expect.stringMatching(/^cache-demo-/), expect.stringMatching(/^cache-live-/)]);
  });

  it('a corrupt cache file means a warning and an empty cache, not a crash', async () => {
    const dataDir = tempDataDir();
    stack = await startTestStack({ config: { server: { dataDir } } });
    await get(stack, '/api/v1/hotspots');
    await stack.app.close();
    const file = readdirSync(dataDir).find((f) => f.startsWith('cache-')) ?? '';
    writeFileSync(join(dataDir, file), '{"version":1,"entries":[{"trunc');
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(line) });
    const app = (
      await buildApp(testConfig({ server: { dataDir } }), {
        upstream: { mode: 'demo', baseUrl: stack.upstream.url, apiKey: new Secret(stack.key) },
        now: stack.clock.now,
        logger,
      })
    ).app;
    try {
      expect(lines.join('\n')).toMatch(/cache file corrupt; starting with an empty cache/);
      const res = await app.inject('/api/v1/hotspots');
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-cache']).toBe('MISS');
    } finally {
      await app.close();
    }
    expect(existsSync(join(dataDir, file))).toBe(true);
    expect(() => JSON.parse(readFileSync(join(dataDir, file), 'utf8'))).not.toThrow();
  });
});

describe('memory bound', () => {
  it('the store keeps at most CACHE_MAX_ENTRIES, dropping the least recently used', () => {
    const store = new CacheEntries(10, 1_000_000);
    for (let i = 0; i < 12; i++) {
      store.set({ key: `k${i}`, fetchedAt: i, asOf: null, value: i, size: 10 });
      if (i === 5) store.get('k0');
    }
    expect(store.size).toBe(10);
    expect(store.get('k0')).toBeDefined();
    expect(store.get('k1')).toBeUndefined();
    expect(store.get('k2')).toBeUndefined();
  });

  it('and at most its bytes, however few entries that is', () => {
    const store = new CacheEntries(1000, 100_000);
    for (let i = 0; i < 12; i++) {
      store.set({ key: `k${i}`, fetchedAt: i, asOf: null, value: i, size: 30_000 });
    }
    expect(store.bytes).toBeLessThanOrEqual(100_000);
    expect(store.size).toBe(3);
    expect(store.get('k11')).toBeDefined();
  });
});
