import { afterEach, describe, expect, it } from 'vitest';
import { Secret } from '../../src/server/secret.js';
import { get, startTestStack } from '../helpers/bff.js';
import type { TestClock } from '../helpers/clock.js';
import type { Stack } from '../helpers/stack.js';
import { tempDataDir } from '../helpers/test-config.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// The details of access control: guessing, sessions, cross-site posts, open paths, Host names.

let stack: Stack & { clock: TestClock };
afterEach(async () => {
  await stack.close();
});

const TOKEN = 'q3Jx0vTq8mZ2bYl4VdN7cR1sWk9eHu5aPf6gLi2oXy0=';

function fakeClientDir(): string {
  const dir = tempDataDir('grd-client-');
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>GRD</title><div id="root"></div>');
  return dir;
}

const withToken = (extra: { trustedProxyAddresses?: string[] } = {}) =>
  startTestStack({
    clientDir: fakeClientDir(),
    config: {
      access: {
        dashboardToken: new Secret(TOKEN),
        trustedProxyAuthHeader: null,
        allowAnonymous: false,
        ...extra,
      },
    },
  });

const login = (token: string, headers: Record<string, string> = {}) =>
  stack.app.inject({
    method: 'POST',
    url: '/login',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams({ token }).toString(),
  });

describe('access control details', () => {
  it('wrong bearer tokens are throttled per address; the right one from elsewhere still passes', async () => {
    stack = await withToken();
    const guess = (token: string, remoteAddress: string) =>
      get(stack, '/api/status', { headers: { authorization: `Bearer ${token}` }, remoteAddress });
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await guess(`guess-${i}`, '10.0.0.66')).statusCode);
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(10).every((s) => s === 429)).toBe(true);
    // Refused unchecked: even the right token waits at that address.
    expect((await guess(TOKEN, '10.0.0.66')).statusCode).toBe(429);
    expect((await guess(TOKEN, '10.0.0.7')).statusCode).toBe(200);
    stack.clock.advance(61_000);
    expect((await guess(TOKEN, '10.0.0.66')).statusCode).toBe(200);
  });

  it('the /login limit counts only failures, per person behind a trusted proxy', async () => {
    // The proxy is 127.0.0.1 (where inject connects from); it names the client it forwards.
    stack = await withToken({ trustedProxyAddresses: ['127.0.0.1'] });
    const via = (client: string) => ({ 'x-forwarded-for': client });
    for (let i = 0; i < 12; i++) await login(`wrong-${i}`, via('192.168.1.20'));
    expect((await login(TOKEN, via('192.168.1.20'))).statusCode).toBe(429);
    // Another person behind the same proxy signs in.
    const other = await login(TOKEN, via('192.168.1.21'));
    expect(other.statusCode).toBe(303);
    // Right tokens are never counted: many sign-ins from one address all pass.
    for (let i = 0; i < 15; i++) {
      expect((await login(TOKEN, via('192.168.1.22'))).statusCode).toBe(303);
    }
  });

  it('signing out revokes the session; cross-site posts are refused', async () => {
    stack = await withToken();
    const signedIn = await login(TOKEN);
    const cookie = String(signedIn.headers['set-cookie']).split(';')[0] ?? '';
    expect((await get(stack, '/api/status', { headers: { cookie } })).statusCode).toBe(200);

    const crossSite = await stack.app.inject({
      method: 'POST',
      url: '/logout',
      headers: { cookie, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.json()).toEqual({
      ok: false,
      error: expect.stringMatching(/from another site/),
    });
    expect((await get(stack, '/api/status', { headers: { cookie } })).statusCode).toBe(200);
    const crossLogin = await login(TOKEN, { origin: 'https://evil.example' });
    expect(crossLogin.statusCode).toBe(403);

    const out = await stack.app.inject({
      method: 'POST',
      url: '/logout',
      headers: { cookie, origin: 'http://localhost:80', host: 'localhost:80' },
    });
    expect(out.statusCode).toBe(303);
    // The old cookie, replayed, no longer works.
    expect((await get(stack, '/api/status', { headers: { cookie } })).statusCode).toBe(401);
  });

  it('GET /logout is a 405, never the SPA; in proxy mode /login is not open', async () => {
    stack = await withToken();
    const getLogout = await get(stack, '/logout', { headers: { accept: 'text/html' } });
    expect(getLogout.statusCode).toBe(405);
    expect(getLogout.headers.allow).toBe('POST');
    expect(getLogout.body).not.toContain('<div id="root">');
    await stack.close();

    stack = await startTestStack({
      clientDir: fakeClientDir(),
      config: {
        access: {
          dashboardToken: null,
          trustedProxyAuthHeader: 'x-forwarded-user',
          trustedProxyAddresses: ['10.9.9.9'],
          allowAnonymous: false,
        },
      },
    });
    for (const path of ['/login', '/logout']) {
      const res = await get(stack, path, { headers: { accept: 'text/html' } });
      expect(res.statusCode).toBe(401);
      expect(res.body).not.toContain('<div id="root">');
    }
  });

  it('answers only its own host names (DNS rebinding), on loopback by default', async () => {
    stack = await startTestStack({ config: { access: { ...anonymous() } } });
    const as = (host: string) => get(stack, '/api/v1/hotspots', { headers: { host } });
    const rebound = await as('attacker.example:3000');
    expect(rebound.statusCode).toBe(421);
    expect(rebound.json()).toEqual({ ok: false, error: expect.stringMatching(/host name/) });
    expect(stack.upstream.requestCount()).toBe(0);
    expect((await as('localhost:3000')).statusCode).toBe(200);
    expect((await as('127.0.0.1:3000')).statusCode).toBe(200);
    expect((await as('[::1]:3000')).statusCode).toBe(200);
  });
});

function anonymous() {
  return { dashboardToken: null, trustedProxyAuthHeader: null, allowAnonymous: false };
}
