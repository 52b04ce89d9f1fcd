import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { countriesResponseSchema, statusResponseSchema } from '../../src/shared/bff-api.js';
import {
  countryResponseSchema,
  hotspotsResponseSchema,
} from '../../src/shared/schemas/responses.js';
import { ABSENT_ISOS } from '../../src/demo-upstream/server.js';
import { get, startTestStack, upstreamRequestsDuring } from '../helpers/bff.js';
import type { TestClock } from '../helpers/clock.js';
import type { Stack } from '../helpers/stack.js';

let stack: Stack & { clock: TestClock };
beforeEach(async () => {
  stack = await startTestStack();
});
afterEach(async () => {
  await stack.close();
});

describe('GET /api/v1/hotspots', () => {
  it('answers in the upstream shape, default limit 20, asking the upstream for 50 once', async () => {
    const res = await get(stack, '/api/v1/hotspots');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-cache']).toBe('MISS');
    const body = hotspotsResponseSchema.parse(res.json());
    expect(body.count).toBe(20);
    expect(body.hotspots).toHaveLength(20);
    expect(body.global?.ggri).toEqual(expect.any(Number));
    const log = stack.upstream.requestLog();
    expect(log.map((e) => `${e.path}?${e.query}`)).toEqual(['/api/v1/hotspots?limit=50']);
  });

  it('serves smaller limits and tier filters from the wide page without asking again', async () => {
    const wide = hotspotsResponseSchema.parse(
      (await get(stack, '/api/v1/hotspots?limit=50')).json(),
    );
    const spent = await upstreamRequestsDuring(stack, async () => {
      const five = await get(stack, '/api/v1/hotspots?limit=5');
      expect(five.headers['x-cache']).toBe('HIT');
      expect(five.json().hotspots).toEqual(wide.hotspots.slice(0, 5));
      expect(five.json().count).toBe(5);
      const crit = await get(stack, '/api/v1/hotspots?tier=crit&limit=3');
      const expected = wide.hotspots.filter((h) => h.tier === 'crit').slice(0, 3);
      expect(expected.length).toBeGreaterThan(0);
      expect(crit.json().hotspots).toEqual(expected);
    });
    expect(spent).toBe(0);
  });

  it('asks the upstream with the tier filter when the top 50 cannot hold the answer', async () => {
    await get(stack, '/api/v1/hotspots?limit=50');
    const res = await get(stack, '/api/v1/hotspots?tier=low&limit=40');
    expect(res.statusCode).toBe(200);
    const body = hotspotsResponseSchema.parse(res.json());
    expect(body.hotspots.every((h) => h.tier === 'low')).toBe(true);
    expect(body.count).toBe(40);
    const last = stack.upstream.requestLog().at(-1);
    expect(`${last?.path}?${last?.query}`).toBe('/api/v1/hotspots?limit=50&tier=low');
  });

  it('never sends a tier label no data has shown; it matches nothing', async () => {
    await get(stack, '/api/v1/hotspots?limit=50');
    const spent = await upstreamRequestsDuring(stack, async () => {
      const res = await get(stack, '/api/v1/hotspots?tier=severe&limit=10');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ ok: true, count: 0, hotspots: [] });
    });
    expect(spent).toBe(0);
  });

  it('revalidates with ETag: an unchanged answer is a 304 without a body', async () => {
    const first = await get(stack, '/api/v1/hotspots?limit=5');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/"/);
    const again = await get(stack, '/api/v1/hotspots?limit=5', {
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const other = await get(stack, '/api/v1/hotspots?limit=6', {
      headers: { 'if-none-match': etag },
    });
    expect(other.statusCode).toBe(200);
  });

  it('passes include through and keeps the per-row data', async () => {
    const res = await get(stack, '/api/v1/hotspots?include=events,categories&limit=2');
    expect(res.statusCode).toBe(200);
    const row = res.json().hotspots[0];
    expect(row.categories).toBeTypeOf('object');
    expect(Array.isArray(row.events)).toBe(true);
    expect(stack.upstream.requestLog().at(-1)?.query).toBe('limit=50&include=categories,events');
  });
});

describe('GET /api/v1/country/:iso', () => {
  it('serves detail from the JSON export: one request for every country of the batch', async () => {
    const spent = await upstreamRequestsDuring(stack, async () => {
      for (const iso of ['UKR', 'fra', 'Deu', 'usa']) {
        const res = await get(stack, `/api/v1/country/${iso}`);
        expect(res.statusCode).toBe(200);
        const body = countryResponseSchema.parse(res.json());
        expect(body.country.iso).toBe(iso.toUpperCase());
        expect(body.country.events?.length ?? 0).toBeLessThanOrEqual(20);
      }
    });
    expect(spent).toBe(1);
    expect(stack.upstream.requestLog().map((e) => e.path)).toEqual(['/api/v1/export']);
  });

  it('answers 404 for a country absent from the export without asking the upstream', async () => {
    await get(stack, '/api/v1/country/UKR');
    const spent = await upstreamRequestsDuring(stack, async () => {
      for (const iso of ABSENT_ISOS) {
        const res = await get(stack, `/api/v1/country/${iso}`);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({
          ok: false,
          error: `Country ${iso} is not in the current data (low baseline or no recent news)`,
        });
      }
    });
    expect(spent).toBe(0);
  });
});

describe('GET /api/countries', () => {
  it('lists every country of the batch with scores and categories, without events', async () => {
    const res = await get(stack, '/api/countries');
    expect(res.statusCode).toBe(200);
    const body = countriesResponseSchema.parse(res.json());
    expect(body.count).toBe(body.countries.length);
    expect(body.count).toBeGreaterThan(100);
    expect(body.countries.some((c) => ABSENT_ISOS.includes(c.iso))).toBe(false);
    const ukr = body.countries.find((c) => c.iso === 'UKR');
    expect(Object.keys(ukr?.categories ?? {})).toHaveLength(10);
    expect(ukr).not.toHaveProperty('events');
    // The same export serves country detail afterwards.
    expect(await upstreamRequestsDuring(stack, () => get(stack, '/api/v1/country/UKR'))).toBe(0);
  });
});

describe('GET /api/v1/export', () => {
  it('passes the file through under a name built from the batch date, cached for the batch', async () => {
    const csv = await get(stack, '/api/v1/export');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toMatch(
      /^attachment; filename="ggri-export-2026-11-23\.csv"$/,
    );
    expect(csv.body.split('\n')[0]).toMatch(/^# generated_at: /);
    const json = await get(stack, '/api/v1/export?format=json');
    expect(json.headers['content-disposition']).toMatch(/filename="ggri-export-2026-11-23\.json"$/);
    expect(JSON.parse(json.body)).toHaveProperty('feed_history');
    const again = await upstreamRequestsDuring(stack, async () => {
      const res = await get(stack, '/api/v1/export?format=csv');
      expect(res.headers['x-cache']).toBe('HIT');
      expect(res.body).toBe(csv.body);
    });
    expect(again).toBe(0);
  });

  it('streams a large file whole, with its length', async () => {
    const json = await get(stack, '/api/v1/export?format=json');
    expect(Number(json.headers['content-length'])).toBe(Buffer.byteLength(json.body));
    expect(Buffer.byteLength(json.body)).toBeGreaterThan(256 * 1024);
  });
});

describe('GET /api/status, /healthz, /readyz, /metrics', () => {
  it('status fills every field and costs nothing', async () => {
    const before = statusResponseSchema.parse((await get(stack, '/api/status')).json());
    expect(before).toMatchObject({ mode: 'demo', as_of: null, upstream: { health: 'ok' } });
    await get(stack, '/api/v1/hotspots');
    await get(stack, '/api/v1/hotspots');
    const spent = await upstreamRequestsDuring(stack, async () => {
      const status = statusResponseSchema.parse((await get(stack, '/api/status')).json());
      expect(status.as_of).toBe('2026-11-23T03:00:00.000Z');
      expect(status.methodology_version).toEqual(expect.any(String));
      expect(status.last_checked_at).toBe(new Date(stack.clock.t).toISOString());
      expect(Date.parse(status.next_check_at ?? '')).toBeGreaterThan(stack.clock.t);
      expect(status.next_batch_due_at).toBe('2026-11-23T10:00:00.000Z');
      expect(status.quota).toMatchObject({ limit: 50, remaining: 49, used_last_60min: 1 });
      expect(status.quota.reserve).toBe(10);
      expect(status.quota.blocked_until).toBeNull();
      expect(status.cache).toMatchObject({ entries: 1, hits: 1, misses: 1, stale_serves: 0 });
      expect(status.tiles).toBeNull();
    });
    expect(spent).toBe(0);
  });

  it('healthz always; readyz 503 until data can be served, then 200', async () => {
    expect((await get(stack, '/healthz')).json()).toEqual({ ok: true });
    const cold = await get(stack, '/readyz');
    expect(cold.statusCode).toBe(503);
    expect(cold.json()).toMatchObject({ ok: false, error: expect.stringMatching(/No data/) });
    // The probe started the first fetch; readiness follows without any page view.
    await expect.poll(async () => (await get(stack, '/readyz')).statusCode).toBe(200);
    expect(stack.upstream.requestCount()).toBe(1);
  });

  it('metrics speak Prometheus: upstream requests by route and status, cache results, quota', async () => {
    await get(stack, '/api/v1/hotspots');
    await get(stack, '/api/v1/hotspots?limit=3');
    const res = await get(stack, '/metrics');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toContain('grd_upstream_requests_total{route="hotspots",status="200"} 1');
    expect(res.body).toContain('grd_cache_results_total{route="hotspots",result="miss"} 1');
    expect(res.body).toContain('grd_cache_results_total{route="hotspots",result="hit"} 1');
    expect(res.body).toContain('grd_upstream_quota_remaining 49');
    expect(res.body).toContain('grd_process_cpu_seconds_total');
  });
});

describe('errors in one shape', () => {
  it.each([
    ['GET', '/api/nothing-here', 404],
    ['GET', '/api/v1/unknown', 404],
    ['POST', '/api/v1/hotspots', 405],
    ['DELETE', '/api/v1/country/UKR', 405],
  ])('%s %s → %i {ok:false,error}', async (method, url, status) => {
    const res = await stack.app.inject({ method: method as 'GET', url });
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual({ ok: false, error: expect.any(String) });
  });

  it('a malformed JSON body gets the same shape', async () => {
    const res = await stack.app.inject({
      method: 'POST',
      url: '/api/v1/hotspots',
      headers: { 'content-type': 'application/json' },
      payload: '{"broken',
    });
    expect(res.json()).toEqual({ ok: false, error: expect.any(String) });
  });

  it('HEAD works like GET without a body', async () => {
    await get(stack, '/api/v1/hotspots');
    const res = await stack.app.inject({ method: 'HEAD', url: '/api/v1/hotspots' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
  });
});
