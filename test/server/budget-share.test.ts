import { afterEach, describe, expect, it } from 'vitest';
import { get, startTestStack } from '../helpers/bff.js';
import { MINUTE, type TestClock } from '../helpers/clock.js';
import type { Stack } from '../helpers/stack.js';

// No one client, or two, may spend the hour's upstream budget that everyone shares.

let stack: Stack & { clock: TestClock };
afterEach(async () => {
  await stack.close();
});

const LABELS = ['crit', 'high', 'low', 'mod'];
/** Every proper non-empty subset of the four tiers (the full set is the unfiltered page). */
const TIER_SUBSETS = Array.from({ length: 14 }, (_, i) =>
  LABELS.filter((_, bit) => ((i + 1) >> bit) & 1).join(','),
);

/** Distinct cache misses: every include set with every filter the unfiltered page cannot answer. */
function missUrls(): string[] {
  const urls: string[] = [];
  for (const include of ['', 'categories', 'events', 'categories,events']) {
    for (const tier of TIER_SUBSETS) {
      const query = new URLSearchParams({ limit: '50', tier });
      if (include) query.set('include', include);
      urls.push(`/api/v1/hotspots?${query.toString().replace(/%2C/g, ',')}`);
    }
  }
  return urls;
}

describe('per-client share of the key budget', () => {
  it('one address gets a fifth of a Pro hour, a second another; a third person is still served', async () => {
    stack = await startTestStack({ tier: 'Pro' });
    const from = (remoteAddress: string, url: string) => get(stack, url, { remoteAddress });
    const urls = missUrls();
    const spentBy = async (address: string, list: string[]) => {
      const before = stack.upstream.requestCount();
      for (const url of list) await from(address, url);
      return stack.upstream.requestCount() - before;
    };
    // 30 misses in a second from one address: the minute limit (30) would allow all of them.
    expect(await spentBy('10.0.0.1', urls.slice(0, 30))).toBe(10);
    const refused = await from('10.0.0.1', urls[40] ?? '');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toMatch(/share of this hour's upstream budget/);
    // The hour, not the minute: two minutes later it is still refused.
    stack.clock.advance(2 * MINUTE);
    expect((await from('10.0.0.1', urls[41] ?? '')).statusCode).toBe(429);

    expect(await spentBy('10.0.0.2', urls.slice(30))).toBe(10);
    const third = await from('10.0.0.3', '/api/v1/export?format=csv');
    expect(third.statusCode).toBe(200);
    expect(third.headers['x-cache']).toBe('MISS');
    const status = await get(stack, '/api/status');
    expect(status.json().quota.remaining).toBeGreaterThanOrEqual(50 - 21);
  });

  it('the share follows the limit the upstream reports (a 10-an-hour key: 2 per client)', async () => {
    stack = await startTestStack({ tier: 'Custom', keyLimit: 10 });
    const from = (url: string) => get(stack, url, { remoteAddress: '10.0.0.1' });
    const urls = missUrls();
    expect((await from(urls[0] ?? '')).statusCode).toBe(200);
    const before = stack.upstream.requestCount();
    const answers = [];
    for (const url of urls.slice(1, 6)) answers.push((await from(url)).statusCode);
    expect(answers.filter((s) => s === 429).length).toBeGreaterThan(0);
    // 2 allowed in all (header says 10, 20 % of it): the first request spent up to 2 already.
    expect(stack.upstream.requestCount() - before).toBeLessThanOrEqual(1);
  });

  it('the SSO header is believed only from TRUSTED_PROXY_ADDRESSES', async () => {
    stack = await startTestStack({
      config: {
        access: {
          dashboardToken: null,
          trustedProxyAuthHeader: 'x-forwarded-user',
          trustedProxyAddresses: ['10.9.9.0/24'],
          allowAnonymous: false,
        },
      },
    });
    const as = (user: string, remoteAddress: string) =>
      get(stack, '/api/v1/hotspots', { headers: { 'x-forwarded-user': user }, remoteAddress });
    expect((await as('ana', '10.9.9.9')).statusCode).toBe(200);
    // Anyone else who reaches the port cannot pick an identity.
    const forged = await as('ana', '10.0.0.7');
    expect(forged.statusCode).toBe(401);
    expect(stack.upstream.requestCount()).toBe(1);
  });
});
