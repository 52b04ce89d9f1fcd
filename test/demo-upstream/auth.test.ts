import { createHash } from 'node:crypto';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyStore } from '../../src/demo-upstream/auth.js';
import { startHarness, type Harness } from '../helpers/demo-harness.js';

const EXACT_401 = '{"ok": false, "error": "Invalid API key"}';

describe('demo upstream: authentication', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('issues keys of the documented form, a new one each time', () => {
    const a = h.upstream.issueKey('Team');
    const b = h.upstream.issueKey('Team');
    expect(a).toMatch(/^ar_live_[0-9a-f]{64}$/);
    expect(b).toMatch(/^ar_live_[0-9a-f]{64}$/);
    expect(a).not.toBe(b);
  });

  it('stores only the SHA-256 of a key, never the plaintext', () => {
    const store = new KeyStore();
    const key = store.issue('Pro');
    const dump = inspect(store, { depth: 10 });
    expect(dump).not.toContain(key);
    expect(dump).not.toContain(key.slice('ar_live_'.length));
    expect(dump).toContain(createHash('sha256').update(key).digest('hex'));
  });

  const badHeaders: Array<[string, Record<string, string>]> = [
    ['no Authorization header', {}],
    ['an empty header', { authorization: '' }],
    ['another scheme', { authorization: `Basic ${'ab'.repeat(32)}` }],
    ['Bearer without a key', { authorization: 'Bearer ' }],
    ['a key without the prefix', { authorization: `Bearer ${'ab'.repeat(32)}` }],
    ['a test-mode prefix', { authorization: `Bearer ar_test_${'ab'.repeat(32)}` }],
    ['63 hex characters', { authorization: `Bearer ar_live_${'a'.repeat(63)}` }],
    ['65 hex characters', { authorization: `Bearer ar_live_${'a'.repeat(65)}` }],
    ['a non-hex character', { authorization: `Bearer ar_live_${'a'.repeat(63)}g` }],
    ['two tokens', { authorization: `Bearer ar_live_${'a'.repeat(64)} extra` }],
  ];
  it.each(badHeaders)('answers 401 with the exact documented body for %s', async (_, headers) => {
    for (const path of ['/api/v1/hotspots', '/api/v1/country/UKR', '/api/v1/export']) {
      const response = await fetch(`${h.upstream.url}${path}`, { headers });
      expect(response.status).toBe(401);
      expect(await response.text()).toBe(EXACT_401);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    }
  });

  it('answers 403 for a well-formed key that was never issued', async () => {
    const answer = await h.getJson('/api/v1/hotspots', `ar_live_${'0'.repeat(64)}`);
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ ok: false, error: expect.stringMatching(/issued/) });
  });

  it.each(['Free', 'Trial'] as const)('answers 403 for a %s key (no API access)', async (tier) => {
    const key = h.upstream.issueKey(tier);
    const answer = await h.getJson('/api/v1/hotspots', key);
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ ok: false, error: expect.stringContaining(tier) });
    expect(answer.headers.get('retry-after')).toBeNull();
  });

  it('answers 403 once a key is deactivated, and 200 before', async () => {
    const key = h.upstream.issueKey('Enterprise');
    expect((await h.get('/api/v1/hotspots?limit=1', key)).status).toBe(200);
    h.upstream.deactivateKey(key);
    const answer = await h.getJson('/api/v1/hotspots?limit=1', key);
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ ok: false, error: expect.stringMatching(/inactive/) });
  });

  it('accepts the scheme name in any case and a key with upper-case hex digits as well-formed', async () => {
    const key = h.upstream.issueKey('Pro');
    expect(
      (
        await fetch(`${h.upstream.url}/api/v1/hotspots?limit=1`, {
          headers: { authorization: `bearer ${key}` },
        })
      ).status,
    ).toBe(200);
    // Upper-cased, it is a different (never issued) key: 403, not 401.
    const upper = `ar_live_${key.slice(8).toUpperCase()}`;
    expect((await h.get('/api/v1/hotspots', upper)).status).toBe(403);
  });

  it('does not count 401 and 403 answers against the limit', async () => {
    const key = h.upstream.issueKey('Pro');
    const first = await h.get('/api/v1/hotspots?limit=1', key);
    expect(first.headers.get('x-ratelimit-remaining')).toBe('49');
    for (let i = 0; i < 5; i += 1) {
      await h.get('/api/v1/hotspots', null);
      await h.get('/api/v1/hotspots', `ar_live_${'1'.repeat(64)}`);
    }
    const second = await h.get('/api/v1/hotspots?limit=1', key);
    expect(second.headers.get('x-ratelimit-remaining')).toBe('48');
  });

  it('rejects a limit for tiers other than Custom, and an unknown key on deactivation', () => {
    expect(() => h.upstream.issueKey('Pro', { limit: 5 })).toThrow(/Custom/);
    expect(() => h.upstream.issueKey('Custom', { limit: 0 })).toThrow(/positive/);
    expect(() => h.upstream.deactivateKey(`ar_live_${'2'.repeat(64)}`)).toThrow(/no such key/);
  });

  it('counts every /api/v1 request it receives and logs method, path, status and time', async () => {
    const before = h.upstream.requestCount();
    const logBefore = h.upstream.requestLog().length;
    h.clock.now += 1234;
    await h.get('/api/v1/hotspots?limit=3');
    await h.get('/api/v1/country/UKR', null);
    await h.get('/api/v1/no-such-thing');
    await h.get('/api/openapi.json', null);
    await h.get('/api/v1/country/%E0%A4%A');
    expect(h.upstream.requestCount() - before).toBe(4);
    const entries = h.upstream.requestLog().slice(logBefore);
    expect(entries).toEqual([
      { method: 'GET', path: '/api/v1/hotspots', query: 'limit=3', status: 200, at: h.clock.now },
      { method: 'GET', path: '/api/v1/country/UKR', query: '', status: 401, at: h.clock.now },
      { method: 'GET', path: '/api/v1/no-such-thing', query: '', status: 404, at: h.clock.now },
      { method: 'GET', path: '/api/v1/country/%E0%A4%A', query: '', status: 400, at: h.clock.now },
    ]);
  });

  it('answers other methods 405 with Allow, and undecodable URLs 400, in the error shape', async () => {
    const post = await fetch(`${h.upstream.url}/api/v1/hotspots`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.key}` },
    });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect(await post.json()).toEqual({ ok: false, error: expect.stringMatching(/POST/) });
    const bad = await h.getJson('/api/v1/country/%E0%A4%A');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ ok: false, error: expect.stringMatching(/not a valid url/) });
  });
});
