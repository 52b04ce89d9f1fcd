import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Secret } from '../../src/server/secret.js';
import { get, startTestStack } from '../helpers/bff.js';
import { HOUR, MINUTE, type TestClock } from '../helpers/clock.js';
import type { Stack } from '../helpers/stack.js';
import { tempDataDir } from '../helpers/test-config.js';

// Who may use the dashboard (token, login cookie, SSO header) and how much one client may cost.

let stack: Stack & { clock: TestClock };
afterEach(async () => {
  await stack.close();
});

const TOKEN = 'q3Jx0vTq8mZ2bYl4VdN7cR1sWk9eHu5aPf6gLi2oXy0=';

function fakeClientDir(): string {
  const dir = tempDataDir('grd-client-');
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>GRD</title><div id="root"></div>');
  writeFileSync(join(dir, 'assets', 'index-Bq3xZ9.js'), 'console.log("app")');
  return dir;
}

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
    expect(page.headers.location).toBe('/login?return_to=%2Fcountry%2FUKR');
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
          trustedProxyAddresses: ['127.0.0.1', '10.9.9.9'],
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
    stack = await startTestStack({ config: { data: { clientMissesPerMinute: 2 } } });
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
        access: {
          dashboardToken: null,
          trustedProxyAuthHeader: 'x-forwarded-user',
          trustedProxyAddresses: ['127.0.0.1', '10.9.9.9'],
          allowAnonymous: false,
        },
        data: { clientMissesPerMinute: 1 },
      },
    });
    const as = (user: string, url: string) =>
      get(stack, url, { headers: { 'x-forwarded-user': user }, remoteAddress: '10.9.9.9' });
    expect((await as('ana', '/api/v1/hotspots')).statusCode).toBe(200);
    expect((await as('ana', '/api/v1/export')).statusCode).toBe(429);
    expect((await as('ben', '/api/v1/export')).statusCode).toBe(200);
  });
});
