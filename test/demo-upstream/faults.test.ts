import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/demo-harness.js';

describe('demo upstream: fault injection', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ tier: 'Custom' });
  });
  afterEach(() => h.upstream.setFaults({}));
  afterAll(() => h.close());

  it('answers every request 503 with an error body during an outage, and recovers after', async () => {
    h.upstream.setFaults({ outage: true });
    for (const path of [
      '/api/v1/hotspots',
      '/api/v1/country/UKR',
      '/api/v1/export',
      '/api/openapi.json',
    ]) {
      const { status, body } = await h.getJson(path);
      expect(status).toBe(503);
      expect(body).toEqual({ ok: false, error: expect.stringMatching(/unavailable/) });
    }
    // Even without a key: the service is down before it can check one.
    expect((await h.get('/api/v1/hotspots', null)).status).toBe(503);
    h.upstream.setFaults({});
    expect((await h.get('/api/v1/hotspots')).status).toBe(200);
  });

  it('answers 500/502/503 with an error body at error rate 1, after authentication', async () => {
    h.upstream.setFaults({ errorRate: 1 });
    const seen = new Set<number>();
    for (let i = 0; i < 30; i += 1) {
      const { status, body } = await h.getJson('/api/v1/hotspots?limit=1');
      expect([500, 502, 503]).toContain(status);
      expect(body).toEqual({ ok: false, error: expect.any(String) });
      seen.add(status);
    }
    expect(seen.size).toBeGreaterThan(1);
    // Authentication comes first: a bad key still gets its 401.
    expect((await h.get('/api/v1/hotspots', null)).status).toBe(401);
  });

  it('fails about the configured share of requests', async () => {
    h.upstream.setFaults({ errorRate: 0.5 });
    let failed = 0;
    for (let i = 0; i < 100; i += 1) {
      if ((await h.get('/api/v1/hotspots?limit=1')).status >= 500) failed += 1;
    }
    // Binomial(100, 0.5): outside 25..75 with probability below 1e-6.
    expect(failed).toBeGreaterThan(25);
    expect(failed).toBeLessThan(75);
  });

  it('breaks 200 bodies at malformed rate 1: HTML pages or truncated JSON, never valid JSON', async () => {
    h.upstream.setFaults({ malformedRate: 1 });
    const kinds = new Set<string>();
    for (let i = 0; i < 20; i += 1) {
      const response = await h.get('/api/v1/hotspots?limit=3');
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(() => JSON.parse(text)).toThrow();
      kinds.add(text.startsWith('<!DOCTYPE html>') ? 'html' : 'truncated');
      if (text.startsWith('<!DOCTYPE html>')) {
        expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      }
    }
    expect([...kinds].sort()).toEqual(['html', 'truncated']);
    const csv = await h.get('/api/v1/export');
    expect(csv.headers.get('content-type')).toMatch(/^text\/html/);
    // Errors are left alone: a 400 keeps its JSON body.
    expect((await h.getJson('/api/v1/hotspots?limit=0')).body.ok).toBe(false);
  });

  it('adds the configured latency to every request', async () => {
    // Ordering, not the wall clock: a request made with latency is overtaken by one made after
    // the latency is switched off.
    h.upstream.setFaults({ latencyMs: 2000 });
    const before = h.upstream.requestCount();
    let slowDone = false;
    const slow = h.get('/api/v1/hotspots?limit=1').then((res) => {
      slowDone = true;
      return res;
    });
    await expect.poll(() => h.upstream.requestCount()).toBe(before + 1);
    h.upstream.setFaults({});
    expect((await h.get('/api/v1/hotspots?limit=1')).status).toBe(200);
    expect(slowDone).toBe(false);
    expect((await slow).status).toBe(200);
  });

  it('refuses fault settings that would silently mean something else', async () => {
    expect(() => h.upstream.setFaults({ errorRate: 2 })).toThrow(/errorRate/);
    expect(() => h.upstream.setFaults({ malformedRate: -0.1 })).toThrow(/malformedRate/);
    expect(() => h.upstream.setFaults({ latencyMs: Number.NaN })).toThrow(/latencyMs/);
    await expect(startHarness({ faults: { errorRate: 1.5 } })).rejects.toThrow(/errorRate/);
  });

  it('takes faults at start-up too', async () => {
    const down = await startHarness({ faults: { outage: true } });
    try {
      expect((await down.get('/api/v1/hotspots')).status).toBe(503);
    } finally {
      await down.close();
    }
  });
});
