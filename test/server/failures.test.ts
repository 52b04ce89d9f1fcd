import { createServer } from 'node:net';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { statusResponseSchema } from '../../src/shared/bff-api.js';
import { buildApp } from '../../src/server/compose/app.js';
import { Secret } from '../../src/server/secret.js';
import { get, startTestStack, upstreamRequestsDuring } from '../helpers/bff.js';
import type { TestClock } from '../helpers/clock.js';
import { HOUR, MINUTE } from '../helpers/clock.js';
import type { Stack } from '../helpers/stack.js';
import { testConfig } from '../helpers/test-config.js';

let stack: Stack & { clock: TestClock };
afterEach(async () => {
  await stack.close();
});

const status = async () => statusResponseSchema.parse((await get(stack, '/api/status')).json());

describe('outage', () => {
  it('serves the last good data flagged stale, with X-Cache STALE, and recovers', async () => {
    stack = await startTestStack();
    const good = (await get(stack, '/api/v1/hotspots')).json();
    await get(stack, '/api/v1/country/UKR');
    stack.upstream.setFaults({ outage: true });
    stack.clock.advance(31 * MINUTE);

    expect((await get(stack, '/api/v1/hotspots')).statusCode).toBe(200);
    // The background refresh fails after its bounded retries (3 attempts); awaited, not polled
    // (a poll's one second ran out on a loaded machine).
    await stack.bff.upstreamIdle();
    expect(stack.upstream.requestCount()).toBe(2 + 3);
    const stale = await get(stack, '/api/v1/hotspots');
    expect(stale.statusCode).toBe(200);
    expect(stale.headers['x-cache']).toBe('STALE');
    expect(Number(stale.headers.age)).toBe(31 * 60);
    const body = stale.json();
    expect(body).toMatchObject({ stale: true, stale_reason: expect.stringMatching(/503/) });
    expect(body.hotspots).toEqual(good.hotspots);
    const country = await get(stack, '/api/v1/country/UKR');
    expect(country.headers['x-cache']).toBe('STALE');
    expect(country.json().stale).toBe(true);

    const s = await status();
    expect(s.upstream.health).toBe('down');
    expect(s.upstream.last_error).toMatchObject({ class: 'server_error', status: 503 });
    expect(s.upstream.message).toMatch(/cannot be reached right now; cached data is shown/);
    expect(s.cache.stale_serves).toBe(2);

    // Failed keys back off: more page views during the outage cost nothing.
    expect(await upstreamRequestsDuring(stack, () => get(stack, '/api/v1/hotspots'))).toBe(0);

    stack.upstream.setFaults({});
    stack.clock.advance(MINUTE);
    await get(stack, '/api/v1/hotspots');
    await stack.bff.upstreamIdle();
    expect((await get(stack, '/api/v1/hotspots')).headers['x-cache']).toBe('HIT');
    expect((await get(stack, '/api/v1/hotspots')).json()).not.toHaveProperty('stale');
    expect((await status()).upstream.health).toBe('degraded');
  });

  it('with nothing cached: 503 with a plain error; repeated asks wait out the back-off', async () => {
    stack = await startTestStack({ demo: { faults: { outage: true } } });
    const first = await get(stack, '/api/v1/hotspots');
    expect(first.statusCode).toBe(503);
    expect(first.json()).toEqual({
      ok: false,
      error: expect.stringMatching(/^No data available yet for this request: .*503/),
    });
    expect(stack.upstream.requestCount()).toBe(3);
    const second = await get(stack, '/api/v1/hotspots');
    expect(second.statusCode).toBe(503);
    expect(Number(second.headers['retry-after'])).toBeGreaterThan(0);
    expect(second.json().retry_after_seconds).toBe(Number(second.headers['retry-after']));
    expect(stack.upstream.requestCount()).toBe(3);
  });

  it('stale data is served only up to STALE_IF_ERROR', async () => {
    stack = await startTestStack({
      config: { data: { freshness: { ...testConfig().data.freshness, staleIfErrorMs: 2 * HOUR } } },
    });
    await get(stack, '/api/v1/hotspots');
    stack.upstream.setFaults({ outage: true });
    stack.clock.advance(90 * MINUTE);
    await get(stack, '/api/v1/hotspots');
    await stack.bff.upstreamIdle();
    expect((await get(stack, '/api/v1/hotspots')).headers['x-cache']).toBe('STALE');
    stack.clock.advance(HOUR);
    const expired = await get(stack, '/api/v1/hotspots');
    expect(expired.statusCode).toBe(503);
  });
});

describe('retries', () => {
  it('500/502/503 are retried at most maxAttempts times', async () => {
    stack = await startTestStack({ demo: { faults: { errorRate: 1 } } });
    const res = await get(stack, '/api/v1/hotspots');
    expect(res.statusCode).toBe(503);
    expect(
      stack.upstream
        .requestLog()
        .map((e) => e.status)
        .every((s) => s >= 500),
    ).toBe(true);
    expect(stack.upstream.requestCount()).toBe(3);
  });

  it('retries stop when the total time budget is spent', async () => {
    stack = await startTestStack({
      demo: { faults: { errorRate: 1 } },
      config: { data: { upstreamRetry: { maxAttempts: 100, maxTotalMs: 300, baseDelayMs: 100 } } },
    });
    expect((await get(stack, '/api/v1/hotspots')).statusCode).toBe(503);
    // 100 attempts were allowed; the 300 ms budget with 100 ms doubling delays leaves a few.
    expect(stack.upstream.requestCount()).toBeLessThan(20);
    expect(stack.upstream.requestCount()).toBeGreaterThanOrEqual(1);
  });

  it('a slow upstream hits the whole-request timeout and is classified as such', async () => {
    stack = await startTestStack({
      demo: { faults: { latencyMs: 400 } },
      config: { data: { upstreamTimeouts: { connectMs: 1000, requestMs: 100 } } },
    });
    const res = await get(stack, '/api/v1/hotspots');
    expect(res.statusCode).toBe(503);
    expect(res.json().error).toMatch(/did not answer in time/);
    expect((await status()).upstream.last_error?.class).toBe('timeout');
  });

  it('a refused connection is a network failure', async () => {
    stack = await startTestStack();
    const port = await new Promise<number>((resolve) => {
      const server = createServer();
      server.listen(0, '127.0.0.1', () => {
        const address = server.address();
        server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
      });
    });
    const app = (
      await buildApp(testConfig(), {
        upstream: {
          mode: 'live',
          baseUrl: `http://127.0.0.1:${port}`,
          apiKey: new Secret(stack.key),
        },
      })
    ).app;
    try {
      const res = await app.inject('/api/v1/hotspots');
      expect(res.statusCode).toBe(503);
      expect(res.json().error).toMatch(
        /could not be reached \(connection failed \(ECONNREFUSED\)\)/,
      );
      expect((await app.inject('/api/status')).json().upstream.last_error.class).toBe('network');
    } finally {
      await app.close();
    }
  });
});

describe('malformed upstream answers', () => {
  it('become a 502 with a plain message, logged with the upstream status; the process lives', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    stack = await startTestStack({ logger, demo: { faults: { malformedRate: 1 } } });
    const res = await get(stack, '/api/v1/hotspots');
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({
      ok: false,
      error: expect.stringMatching(
        /The Risk API sent (a body that is not JSON|JSON of an unexpected shape)/,
      ),
    });
    expect(stack.upstream.requestCount()).toBe(1);
    const failure = lines
      .map((l) => JSON.parse(l))
      .find((l) => l.msg === 'Risk API request failed');
    expect(failure).toMatchObject({ class: 'malformed_response', status: 200 });
    // The access line of that request, through the request's own (lazily made) child logger.
    const access = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'request completed');
    expect(access).toMatchObject({
      reqId: expect.any(String),
      method: 'GET',
      path: '/api/v1/hotspots',
      status: 502,
    });
    expect((await get(stack, '/healthz')).statusCode).toBe(200);
    expect((await status()).upstream.last_error?.class).toBe('malformed_response');

    stack.upstream.setFaults({});
    stack.clock.advance(MINUTE);
    expect((await get(stack, '/api/v1/hotspots')).statusCode).toBe(200);
  });
});

describe('shutdown', () => {
  it('a slow upstream does not hold up close(): requests in flight end at once', async () => {
    stack = await startTestStack({
      demo: { faults: { latencyMs: 3000 } },
      config: { data: { upstreamTimeouts: { connectMs: 1000, requestMs: 10_000 } } },
    });
    const pending = get(stack, '/api/v1/hotspots');
    // The request reaching the upstream is awaited (a poll's default second can pass on a loaded
    // machine before it does); the upstream then takes 3 s to answer.
    await expect.poll(() => stack.upstream.requestCount(), { timeout: 10_000 }).toBe(1);
    await stack.app.close();
    // Closed before the upstream (3 s of latency) answered anything: nothing waited for it.
    expect(stack.upstream.requestLog()).toEqual([]);
    const res = await pending;
    expect(res.statusCode).toBe(503);
    expect(stack.upstream.requestCount()).toBe(1);
  });
});
