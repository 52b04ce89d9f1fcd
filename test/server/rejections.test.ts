import { afterEach, describe, expect, it } from 'vitest';
import { statusResponseSchema } from '../../src/shared/bff-api.js';
import { buildApp } from '../../src/server/compose/app.js';
import { Secret } from '../../src/server/secret.js';
import { get, startTestStack } from '../helpers/bff.js';
import type { TestClock } from '../helpers/clock.js';
import { MINUTE } from '../helpers/clock.js';
import type { Stack } from '../helpers/stack.js';
import { testConfig } from '../helpers/test-config.js';

// The upstream refuses: 429 (waited out, never caused), 401 and 403 (explained, not retried).

let stack: Stack & { clock: TestClock };
afterEach(async () => {
  await stack.close();
});

const status = async () => statusResponseSchema.parse((await get(stack, '/api/status')).json());

// These are about the key-wide governor: one client may spend the whole key here.
const ONE_CLIENT = { clientBudgetSharePercent: 100 };

describe('rate limits', () => {
  it("a 429's Retry-After is honoured: no request with that key before it passes", async () => {
    stack = await startTestStack({ tier: 'Custom', keyLimit: 5, config: { data: ONE_CLIENT } });
    await get(stack, '/api/v1/hotspots');
    // Another seat using the same key empties the bucket behind the BFF's back.
    for (let i = 0; i < 4; i++) {
      await fetch(`${stack.upstream.url}/api/v1/hotspots`, {
        headers: { authorization: `Bearer ${stack.key}` },
      });
    }
    const before = stack.upstream.requestCount();
    const limited = await get(stack, '/api/countries');
    expect(limited.statusCode).toBe(503);
    expect(stack.upstream.requestLog().at(-1)?.status).toBe(429);
    const wait = Number(limited.headers['retry-after']);
    expect(wait).toBeGreaterThan(3000);
    expect(limited.json()).toMatchObject({ ok: false, retry_after_seconds: wait });
    expect(limited.json().error).toMatch(/hourly request limit for this key is reached \(429\)/);
    const s = await status();
    expect(s.upstream.health).toBe('degraded');
    expect(Date.parse(s.quota.blocked_until ?? '')).toBe(stack.clock.t + wait * 1000);

    // Meanwhile: cached data is served, uncached data waits, and nothing reaches the upstream.
    stack.clock.advance(40 * MINUTE);
    expect((await get(stack, '/api/v1/hotspots')).statusCode).toBe(200);
    await expect
      .poll(async () => (await get(stack, '/api/v1/hotspots')).headers['x-cache'])
      .toBe('STALE');
    expect((await get(stack, '/api/v1/country/UKR')).statusCode).toBe(503);
    expect(stack.upstream.requestCount()).toBe(before + 1);

    stack.clock.set(Date.parse(s.quota.blocked_until ?? '') + 1000);
    expect((await get(stack, '/api/countries')).statusCode).toBe(200);
    expect(stack.upstream.requestCount()).toBeGreaterThan(before + 1);
  });

  it('the governor stops before the bucket is empty: no 429 is ever caused', async () => {
    stack = await startTestStack({ tier: 'Custom', keyLimit: 3, config: { data: ONE_CLIENT } });
    await get(stack, '/api/v1/hotspots');
    await get(stack, '/api/v1/hotspots?tier=low&limit=50');
    await get(stack, '/api/v1/export');
    // Another person: the key is spent for everyone, not only for the first client.
    const refused = await get(stack, '/api/v1/country/UKR', { remoteAddress: '10.0.0.9' });
    expect(refused.statusCode).toBe(503);
    expect(refused.json().error).toMatch(/budget is spent/);
    expect(Number(refused.headers['retry-after'])).toBe(3600);
    expect(stack.upstream.requestCount()).toBe(3);
    expect(stack.upstream.requestLog().some((e) => e.status === 429)).toBe(false);
  });

  it('background refreshes stop at the reserve; people’s misses may still spend it', async () => {
    stack = await startTestStack({
      tier: 'Custom',
      keyLimit: 6,
      config: { data: { ...ONE_CLIENT, quotaReserve: 3 } },
    });
    await get(stack, '/api/v1/hotspots');
    await get(stack, '/api/v1/export');
    await get(stack, '/api/v1/export?format=json');
    // 3 left = the reserve: the background probe for the stale list is held back.
    stack.clock.advance(31 * MINUTE);
    await get(stack, '/api/v1/hotspots');
    await expect
      .poll(async () => (await get(stack, '/api/v1/hotspots')).json().stale_reason)
      .toMatch(/held back: this hour's last requests are kept for people/);
    expect(stack.upstream.requestCount()).toBe(3);
    // An uncached request from a person may use the reserve.
    expect((await get(stack, '/api/v1/hotspots?include=events')).statusCode).toBe(200);
    expect(stack.upstream.requestCount()).toBe(4);
  });
});

describe('rejected keys', () => {
  it('401: not retried, not re-asked for a minute, and /api/status says why', async () => {
    stack = await startTestStack();
    const app = (
      await buildApp(testConfig(), {
        upstream: { mode: 'live', baseUrl: stack.upstream.url, apiKey: new Secret('not-a-key') },
        now: stack.clock.now,
      })
    ).app;
    try {
      const res = await app.inject('/api/v1/hotspots');
      expect(res.statusCode).toBe(503);
      expect(res.json().error).toMatch(/The API key was rejected \(401\): check RISK_API_KEY/);
      expect(stack.upstream.requestCount()).toBe(1);
      await app.inject('/api/v1/country/UKR');
      expect(stack.upstream.requestCount()).toBe(1);
      const s = statusResponseSchema.parse((await app.inject('/api/status')).json());
      expect(s.upstream).toMatchObject({
        health: 'down',
        message: 'The API key was rejected (401): check RISK_API_KEY',
        last_error: { class: 'key_rejected', status: 401 },
      });
      stack.clock.advance(61_000);
      await app.inject('/api/v1/hotspots');
      expect(stack.upstream.requestCount()).toBe(2);
    } finally {
      await app.close();
    }
  });

  it.each(['Free', 'inactive'] as const)(
    '403 (%s key): /api/status says there is no API access',
    async (kind) => {
      stack = await startTestStack({ tier: kind === 'Free' ? 'Free' : 'Pro' });
      if (kind === 'inactive') stack.upstream.deactivateKey(stack.key);
      const res = await get(stack, '/api/v1/hotspots');
      expect(res.statusCode).toBe(503);
      const s = await status();
      expect(s.upstream.health).toBe('down');
      expect(s.upstream.message).toMatch(/^This key's subscription has no API access \(403\)/);
      expect(s.upstream.last_error?.class).toBe('no_api_access');
      expect(stack.upstream.requestCount()).toBe(1);
    },
  );
});
