import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { CATEGORY_NAMES } from '../../src/shared/categories.js';
import { buildApp } from '../../src/server/compose/app.js';
import { Secret } from '../../src/server/secret.js';
import { startTestStack } from '../helpers/bff.js';
import type { TestClock } from '../helpers/clock.js';
import type { Stack } from '../helpers/stack.js';
import { testConfig } from '../helpers/test-config.js';
import { startVariantUpstream, type VariantUpstream } from '../helpers/variant-upstream.js';

// When the budget is spent, a country whose row is in the cached CSV export is served from it.

let stack: Stack & { clock: TestClock };
let variant: VariantUpstream;
let app: FastifyInstance;
afterEach(async () => {
  await app.close();
  await variant.close();
  await stack.close();
});

describe('budget spent, JSON export without countries', () => {
  it('answers a country from its CSV row, marked partial with the time events return', async () => {
    stack = await startTestStack({ tier: 'Custom', keyLimit: 3 });
    variant = await startVariantUpstream(stack.upstream.url);
    app = (
      await buildApp(testConfig({ data: { clientBudgetSharePercent: 100 } }), {
        upstream: { mode: 'live', baseUrl: variant.url, apiKey: new Secret(stack.key) },
        now: stack.clock.now,
      })
    ).app;
    // JSON export (no countries), then the CSV: 2 of 3 requests; UKR's endpoint: the third.
    const list = await app.inject('/api/countries');
    expect(list.statusCode).toBe(200);
    expect((await app.inject('/api/v1/country/UKR')).statusCode).toBe(200);
    const other = (list.json().countries as Array<{ iso: string }>).find((c) => c.iso !== 'UKR');
    const iso = other?.iso ?? '';

    const before = stack.upstream.requestCount();
    const res = await app.inject(`/api/v1/country/${iso}`);
    expect(stack.upstream.requestCount()).toBe(before);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-cache']).toBe('STALE');
    const body = res.json();
    expect(body).toMatchObject({
      ok: true,
      partial: true,
      stale: true,
      stale_reason: expect.stringMatching(
        /^events unavailable until \d\d:\d\d UTC: upstream quota$/,
      ),
      country: { iso },
    });
    for (const name of CATEGORY_NAMES) {
      expect(body.country.categories[name], name).toMatchObject({ score: expect.any(Number) });
    }
    expect(typeof body.country.risk).toBe('number');
    // A country with no row is still refused (this client's share is spent too), with the wait.
    const absent = await app.inject('/api/v1/country/ATA');
    expect(absent.statusCode).toBe(429);
    expect(Number(absent.headers['retry-after'])).toBeGreaterThan(0);
  });
});
