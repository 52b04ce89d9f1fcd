import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Secret } from '../../src/server/secret.js';
import { get, startTestStack } from '../helpers/bff.js';
import { HOUR, MINUTE, type TestClock } from '../helpers/clock.js';
import type { Stack } from '../helpers/stack.js';
import { tempDataDir } from '../helpers/test-config.js';

let stack: Stack & { clock: TestClock };
afterEach(async () => {
  await stack.close();
});

function fakeClientDir(): string {
  const dir = tempDataDir('grd-client-');
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>GRD</title><div id="root"></div>');
  writeFileSync(join(dir, 'assets', 'index-Bq3xZ9.js'), 'console.log("app")');
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dir;
}

function csp(res: { headers: Record<string, unknown> }): Map<string, string> {
  const text = String(res.headers['content-security-policy'] ?? '');
  return new Map(
    text.split(';').map((part) => {
      const [name = '', ...values] = part.trim().split(/\s+/);
      return [name, values.join(' ')];
    }),
  );
}

describe('security headers', () => {
  it('CSP without inline script, same-origin connections, no framing, nosniff, referrer policy', async () => {
    stack = await startTestStack();
    for (const url of ['/api/v1/hotspots', '/healthz', '/api/nothing']) {
      const res = await get(stack, url);
      const policy = csp(res);
      expect(policy.get('default-src')).toBe("'self'");
      expect(policy.get('script-src')).toBe("'self'");
      expect(policy.get('connect-src')).toBe("'self'");
      expect(policy.get('img-src')).toBe("'self' data:");
      expect(policy.get('style-src')).toBe("'self' 'unsafe-inline'");
      expect(policy.get('frame-ancestors')).toBe("'none'");
      expect(policy.get('object-src')).toBe("'none'");
      expect(policy.has('upgrade-insecure-requests')).toBe(false);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('same-origin');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('behind TLS: HSTS and upgrade-insecure-requests', async () => {
    stack = await startTestStack({ config: { behindTls: true } });
    const res = await get(stack, '/healthz');
    expect(res.headers['strict-transport-security']).toMatch(/max-age=31536000/);
    expect(csp(res).has('upgrade-insecure-requests')).toBe(true);
  });

  it('a configured tile layer adds only its host to img-src', async () => {
    stack = await startTestStack({
      config: {
        tiles: { url: 'https://{s}.tile.example.org/{z}/{x}/{y}.png', attribution: '© Example' },
      },
    });
    const res = await get(stack, '/healthz');
    expect(csp(res).get('img-src')).toBe("'self' data: https://*.tile.example.org");
    expect(csp(res).get('connect-src')).toBe("'self'");
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect((await get(stack, '/api/status')).json().tiles).toEqual({
      url: 'https://{s}.tile.example.org/{z}/{x}/{y}.png',
      attribution: '© Example',
    });
  });
});

describe('the SPA', () => {
  it('page routes get index.html (no-cache); hashed assets are immutable; missing files 404', async () => {
    stack = await startTestStack({ clientDir: fakeClientDir() });
    for (const url of ['/', '/country/UKR', '/overview?tier=crit,high&limit=50']) {
      const res = await get(stack, url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<div id="root">');
    }
    const asset = await get(stack, '/assets/index-Bq3xZ9.js');
    expect(asset.statusCode).toBe(200);
    for (const res of [asset, await get(stack, '/'), await get(stack, '/country/UKR')]) {
      expect(csp(res).get('script-src')).toBe("'self'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get(stack, '/favicon.svg')).headers['cache-control']).toBe('no-cache');
    for (const url of ['/assets/missing-123.js', '/marker-icon.png', '/country/UKR/x.css']) {
      const res = await get(stack, url);
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toMatchObject({ ok: false });
    }
    const api = await get(stack, '/api/v1/nothing');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ ok: false, error: 'No such API route: GET /api/v1/nothing' });
  });
});

const TOKEN = 'correct-horse-battery-staple';

describe('access control: DASHBOARD_TOKEN', () => {
  const start = () =>
    startTestStack({
      clientDir: fakeClientDir(),
      config: {
        access: {
          dashboardToken: new Secret(TOKEN),
          trustedProxyAuthHeader: null,
          allowAnonymous: false,
        },
      },
    });

  it('API clients need the bearer token; probes stay open; nothing is spent for strangers', async () => {
    stack = await start();
    const anonymous = await get(stack, '/api/v1/hotspots');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(anonymous.json()).toEqual({
      ok: false,
      error: expect.stringMatching(/Sign-in required/),
    });
    const wrong = await get(stack, '/api/v1/hotspots', {
      headers: { authorization: 'Bearer nope' },
    });
    expect(wrong.statusCode).toBe(401);
    expect((await get(stack, '/metrics')).statusCode).toBe(401);
    expect((await get(stack, '/assets/index-Bq3xZ9.js')).statusCode).toBe(401);
    expect(stack.upstream.requestCount()).toBe(0);
    expect((await get(stack, '/healthz')).statusCode).toBe(200);
    expect((await get(stack, '/readyz')).statusCode).toBe(503);
    const ok = await get(stack, '/api/v1/hotspots', {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(ok.statusCode).toBe(200);
  });

  it('people sign in on /login and get an HttpOnly, SameSite=Strict session cookie', async () => {
    stack = await start();
    const page = await get(stack, '/country/UKR', { headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(303);
    expect(page.headers.location).toBe('/login');
    const form = await get(stack, '/login');
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('<form method="post" action="/login">');
    expect(form.body).not.toContain('<script');

    const post = (token: string) =>
      stack.app.inject({
        method: 'POST',
        url: '/login',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ token }).toString(),
      });
    const failed = await post('wrong-token-of-some-length');
    expect(failed.statusCode).toBe(401);
    expect(failed.body).toContain('That token is not valid.');
    expect(failed.headers['set-cookie']).toBeUndefined();

    const signedIn = await post(TOKEN);
    expect(signedIn.statusCode).toBe(303);
    expect(signedIn.headers.location).toBe('/');
    const setCookie = String(signedIn.headers['set-cookie']);
    expect(setCookie).toMatch(/^grd_session=/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).not.toContain(TOKEN);
    const cookie = setCookie.split(';')[0] ?? '';

    expect((await get(stack, '/country/UKR', { headers: { cookie } })).statusCode).toBe(200);
    expect((await get(stack, '/api/v1/hotspots', { headers: { cookie } })).statusCode).toBe(200);
    const tampered = `${cookie.slice(0, -2)}xx`;
    expect(
      (await get(stack, '/api/v1/hotspots', { headers: { cookie: tampered } })).statusCode,
    ).toBe(401);
    stack.clock.advance(13 * HOUR);
    expect((await get(stack, '/api/v1/hotspots', { headers: { cookie } })).statusCode).toBe(401);
  });
});

describe('access control: TRUSTED_PROXY_AUTH_HEADER', () => {
  it('requires the header the SSO proxy sets; health stays open', async () => {
    stack = await startTestStack({
      config: {
        access: {
          dashboardToken: null,
          trustedProxyAuthHeader: 'x-forwarded-user',
          allowAnonymous: false,
        },
      },
    });
    const anonymous = await get(stack, '/api/v1/hotspots');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error).toMatch(/sign-in proxy/);
    expect(
      (await get(stack, '/api/v1/hotspots', { headers: { 'x-forwarded-user': '' } })).statusCode,
    ).toBe(401);
    const vouched = await get(stack, '/api/v1/hotspots', {
      headers: { 'x-forwarded-user': 'ana' },
    });
    expect(vouched.statusCode).toBe(200);
    expect((await get(stack, '/healthz')).statusCode).toBe(200);
  });
});

describe('per-client limit on cache misses', () => {
  it('a client that causes too many misses gets 429; hits and other clients are unaffected', async () => {
    stack = await startTestStack({ config: { clientMissesPerMinute: 2 } });
    const from = (remoteAddress: string, url: string) => get(stack, url, { remoteAddress });
    expect((await from('10.0.0.1', '/api/v1/hotspots')).statusCode).toBe(200);
    expect((await from('10.0.0.1', '/api/v1/export')).statusCode).toBe(200);
    const before = stack.upstream.requestCount();
    const limited = await from('10.0.0.1', '/api/v1/export?format=json');
    expect(limited.statusCode).toBe(429);
    const wait = Number(limited.headers['retry-after']);
    expect(wait).toBe(60);
    expect(limited.json()).toEqual({
      ok: false,
      error: expect.stringMatching(/Too many requests for data that is not cached/),
      retry_after_seconds: wait,
    });
    expect(stack.upstream.requestCount()).toBe(before);
    // Cached answers are never limited.
    for (let i = 0; i < 10; i++) {
      expect((await from('10.0.0.1', '/api/v1/hotspots?limit=3')).statusCode).toBe(200);
    }
    expect((await from('10.0.0.2', '/api/v1/export?format=json')).statusCode).toBe(200);
    // Now cached for everyone.
    expect((await from('10.0.0.1', '/api/v1/export?format=json')).statusCode).toBe(200);
    stack.clock.advance(MINUTE);
    expect((await from('10.0.0.1', '/api/v1/hotspots?include=events')).statusCode).toBe(200);
  });

  it('behind an SSO proxy the limit is per person, not per proxy address', async () => {
    stack = await startTestStack({
      config: {
        clientMissesPerMinute: 1,
        access: {
          dashboardToken: null,
          trustedProxyAuthHeader: 'x-forwarded-user',
          allowAnonymous: false,
        },
      },
    });
    const as = (user: string, url: string) =>
      get(stack, url, { headers: { 'x-forwarded-user': user }, remoteAddress: '10.9.9.9' });
    expect((await as('ana', '/api/v1/hotspots')).statusCode).toBe(200);
    expect((await as('ana', '/api/v1/export')).statusCode).toBe(429);
    expect((await as('ben', '/api/v1/export')).statusCode).toBe(200);
  });
});
