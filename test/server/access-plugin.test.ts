import Fastify, { type FastifyInstance, type InjectOptions } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { ClientIdentity } from '../../src/server/client-identity.js';
import { installAccess } from '../../src/server/plugins/access.js';
import { Secret } from '../../src/server/secret.js';
import { testConfig } from '../helpers/test-config.js';

/*
 * Access control on its own (a bare Fastify app with the access plugin and three routes), so each
 * of its decisions is checked in milliseconds: the bearer token's spelling, the sign-in form and
 * its cookie, cross-site posts, the throttle on wrong tokens, sign-out, and the proxy's header
 * believed only from the proxy. The whole app's access tests are access*.test.ts.
 */
const TOKEN = 'q3Jx0vTq8mZ2bYl4VdN7cR1sWk9eHu5aPf6gLi2oXy0=';
const PROXY = '10.0.0.7';
const TOKEN_401 =
  'Sign-in required: send Authorization: Bearer <dashboard token>, or sign in at /login';
const PROXY_401 = 'Sign-in required: open the dashboard through your organisation’s sign-in proxy';
const THROTTLED = 'Too many wrong tokens from this address; wait a minute';

let app: FastifyInstance | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

async function build(
  options: { token?: string | null; proxyHeader?: string | null; behindTls?: boolean } = {},
) {
  const { token = TOKEN, proxyHeader = null, behindTls = false } = options;
  let now = Date.UTC(2026, 5, 1, 8);
  const config = testConfig({
    access: {
      dashboardToken: token === null ? null : new Secret(token),
      trustedProxyAuthHeader: proxyHeader,
      trustedProxyAddresses: [PROXY],
      allowedHosts: ['localhost'],
      allowAnonymous: false,
      behindTls,
    },
  });
  const built = Fastify();
  app = built;
  await installAccess(built, config.access, new ClientIdentity(proxyHeader, [PROXY]), () => now);
  built.get('/api/data', async () => ({ ok: true }));
  built.get('/map', async () => 'page');
  built.get('/healthz', { config: { signInFree: true } }, async () => 'up');
  await built.ready();
  const inject = (request: InjectOptions) =>
    built.inject({
      remoteAddress: '192.0.2.1',
      ...request,
      headers: { host: 'localhost', ...request.headers },
    });
  return { inject, advance: (ms: number) => (now += ms) };
}

const bearer = (value: string) => ({ authorization: value });

describe('the bearer token', () => {
  it('is read case-insensitively, with spaces around it, and nothing after it', async () => {
    const { inject } = await build();
    for (const value of [`Bearer ${TOKEN}`, `bearer   ${TOKEN}  `, `BEARER\t${TOKEN}`]) {
      expect((await inject({ url: '/api/data', headers: bearer(value) })).statusCode, value).toBe(
        200,
      );
    }
    for (const value of [
      `Bearer ${TOKEN} more`,
      `Bearer ${TOKEN}x`,
      `Basic ${TOKEN}`,
      TOKEN,
      `xBearer ${TOKEN}`,
    ]) {
      expect((await inject({ url: '/api/data', headers: bearer(value) })).statusCode, value).toBe(
        401,
      );
    }
  });

  it('missing: 401 in words with a Bearer challenge; probes marked sign-in free stay open', async () => {
    const { inject } = await build();
    const refused = await inject({ url: '/api/data' });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ ok: false, error: TOKEN_401 });
    expect(refused.headers['www-authenticate']).toBe('Bearer realm="Global Risk Dashboard"');
    expect((await inject({ url: '/healthz' })).statusCode).toBe(200);
    // A path the router does not know has no route setting: it is refused too.
    expect((await inject({ url: '/nowhere' })).statusCode).toBe(401);
  });

  it('a browser asking for a page is sent to the sign-in form; API paths and other methods get 401', async () => {
    const { inject } = await build();
    const html = { accept: 'text/html,application/xhtml+xml' };
    const page = await inject({ url: '/map?x=1', headers: html });
    expect(page.statusCode).toBe(303);
    expect(page.headers.location).toBe('/login?return_to=%2Fmap%3Fx%3D1');
    // The front page needs no return address.
    expect((await inject({ url: '/', headers: html })).headers.location).toBe('/login');
    expect((await inject({ url: '/api/data', headers: html })).statusCode).toBe(401);
    expect((await inject({ url: '/%61pi/data', headers: html })).statusCode).toBe(401);
    expect((await inject({ url: '/map', method: 'POST', headers: html })).statusCode).toBe(401);
    expect(
      (await inject({ url: '/map', headers: { accept: 'application/json' } })).statusCode,
    ).toBe(401);
    expect((await inject({ url: '/map' })).statusCode).toBe(401);
  });

  it('ten wrong tokens a minute from one address, then 429 even for the right one there', async () => {
    const { inject, advance } = await build();
    const wrong = { url: '/api/data', headers: bearer('Bearer wrong-token') };
    for (let i = 0; i < 10; i++) expect((await inject(wrong)).statusCode).toBe(401);
    const throttled = await inject({ url: '/api/data', headers: bearer(`Bearer ${TOKEN}`) });
    expect(throttled.statusCode).toBe(429);
    expect(throttled.json()).toEqual({ ok: false, error: THROTTLED, retry_after_seconds: 60 });
    // The right token from another address, and a session-less request, are not affected.
    const elsewhere = { remoteAddress: '192.0.2.2', headers: bearer(`Bearer ${TOKEN}`) };
    expect((await inject({ url: '/api/data', ...elsewhere })).statusCode).toBe(200);
    expect((await inject({ url: '/api/data' })).statusCode).toBe(401);
    advance(60_000);
    expect(
      (await inject({ url: '/api/data', headers: bearer(`Bearer ${TOKEN}`) })).statusCode,
    ).toBe(200);
  });
});

describe('the sign-in form', () => {
  const form = (token: string, headers: Record<string, string> = {}): InjectOptions => ({
    method: 'POST',
    url: '/login',
    payload: `token=${encodeURIComponent(token)}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  });

  it('is served uncached; a right token gets an HttpOnly, SameSite=Strict session for 12 h', async () => {
    const { inject, advance } = await build();
    const page = await inject({ url: '/login' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('<form');
    expect(page.body).not.toContain('That token is not valid.');

    // A post that is not a form is a wrong token, not a crash.
    const notForm = await inject({ method: 'POST', url: '/login', payload: { token: TOKEN } });
    expect(notForm.statusCode).toBe(401);
    const wrong = await inject(form('nope'));
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(wrong.headers['set-cookie']).toBeUndefined();
    expect(wrong.body).toContain('That token is not valid.');

    const signedIn = await inject(form(TOKEN));
    expect(signedIn.statusCode).toBe(303);
    expect(signedIn.headers.location).toBe('/');
    const cookie = String(signedIn.headers['set-cookie']);
    expect(cookie).toMatch(
      /^grd_session=[^;]+; Max-Age=43200; Path=\/; HttpOnly; SameSite=Strict$/,
    );
    const session = cookie.split(';')[0]!;
    expect((await inject({ url: '/api/data', headers: { cookie: session } })).statusCode).toBe(200);
    advance(12 * 3_600_000 - 1);
    expect((await inject({ url: '/api/data', headers: { cookie: session } })).statusCode).toBe(200);
    advance(1);
    expect((await inject({ url: '/api/data', headers: { cookie: session } })).statusCode).toBe(401);
  });

  it('marks the cookie Secure behind TLS', async () => {
    const { inject } = await build({ behindTls: true });
    expect(String((await inject(form(TOKEN))).headers['set-cookie'])).toContain('; Secure');
  });

  it('refuses posts from another site, and takes ours (also with the default port written out)', async () => {
    const { inject } = await build();
    const refusals: Array<Record<string, string>> = [
      { origin: 'https://evil.example' },
      { origin: 'http://localhost:8080' },
      { origin: 'not a url' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ];
    for (const headers of refusals) {
      const refused = await inject(form(TOKEN, headers));
      expect(refused.statusCode, JSON.stringify(headers)).toBe(403);
      expect(refused.json()).toEqual({ ok: false, error: 'Sign-in must come from this site' });
    }
    const ours: Array<Record<string, string>> = [
      { origin: 'http://localhost' },
      { origin: 'http://localhost:80' },
      { 'sec-fetch-site': 'same-origin', origin: 'http://localhost' },
      { 'sec-fetch-site': 'none' },
      {},
    ];
    for (const headers of ours) {
      expect((await inject(form(TOKEN, headers))).statusCode, JSON.stringify(headers)).toBe(303);
    }
  });

  it('counts wrong tokens towards the same throttle, and refuses a form over 4 kB', async () => {
    const { inject } = await build();
    for (let i = 0; i < 10; i++) expect((await inject(form('nope'))).statusCode).toBe(401);
    const throttled = await inject(form(TOKEN));
    expect(throttled.statusCode).toBe(429);
    expect(throttled.json()).toMatchObject({ error: THROTTLED });
    const other = { remoteAddress: '192.0.2.9' };
    expect((await inject({ ...form(TOKEN), ...other })).statusCode).toBe(303);
    const big = form(TOKEN + '&pad=' + 'x'.repeat(4096));
    expect((await inject({ ...big, ...other })).statusCode).toBe(413);
  });

  it('sign-out: POST only, from this site; the session is revoked and the cookie cleared', async () => {
    const { inject } = await build();
    const session = String((await inject(form(TOKEN))).headers['set-cookie']).split(';')[0]!;
    for (const method of ['GET', 'HEAD'] as const) {
      const refused = await inject({ method, url: '/logout', headers: { cookie: session } });
      expect(refused.statusCode).toBe(405);
      expect(refused.headers.allow).toBe('POST');
    }
    expect((await inject({ url: '/logout' })).json()).toEqual({
      ok: false,
      error: 'Sign out with POST /logout (a form button)',
    });
    const crossSite = await inject({
      method: 'POST',
      url: '/logout',
      headers: { cookie: session, origin: 'https://evil.example' },
    });
    expect(crossSite.json()).toEqual({ ok: false, error: 'Sign-out must come from this site' });
    expect((await inject({ url: '/api/data', headers: { cookie: session } })).statusCode).toBe(200);

    const out = await inject({ method: 'POST', url: '/logout', headers: { cookie: session } });
    expect(out.statusCode).toBe(303);
    expect(out.headers.location).toBe('/login');
    // The browser drops the offline copy of this origin (worker, caches, storage) itself.
    expect(out.headers['clear-site-data']).toBe('"cache", "storage"');
    expect(String(out.headers['set-cookie'])).toMatch(
      /^grd_session=; Max-Age=0; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Strict$/,
    );
    expect((await inject({ url: '/api/data', headers: { cookie: session } })).statusCode).toBe(401);
  });
});

describe('a shared link survives signing in (issue 33, point 11)', () => {
  const html = { accept: 'text/html' };
  const post = (fields: Record<string, string>, remoteAddress = '192.0.2.1'): InjectOptions => ({
    method: 'POST',
    url: '/login',
    remoteAddress,
    payload: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });

  it('the form keeps the page asked for and returns to it, after a wrong token too', async () => {
    const { inject } = await build();
    const asked = await inject({ url: '/map?trend=7d&q=c%C3%B4te', headers: html });
    expect(asked.headers.location).toBe('/login?return_to=%2Fmap%3Ftrend%3D7d%26q%3Dc%25C3%25B4te');
    const page = await inject({ url: asked.headers.location as string });
    expect(page.body).toContain(
      '<input type="hidden" name="return_to" value="/map?trend=7d&#38;q=c%C3%B4te">',
    );
    const wrong = await inject(post({ token: 'nope', return_to: '/map?trend=7d' }));
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain('name="return_to" value="/map?trend=7d"');
    const signedIn = await inject(post({ token: TOKEN, return_to: '/map?trend=7d&q=c%C3%B4te' }));
    expect(signedIn.statusCode).toBe(303);
    expect(signedIn.headers.location).toBe('/map?trend=7d&q=c%C3%B4te');
  });

  it('returns to a path on this site only', async () => {
    const { inject } = await build();
    const elsewhere = [
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      'javascript:alert(1)',
      '/login?return_to=/x',
      '/logout',
      '/auth/callback?code=1',
      '/map x',
      '',
    ];
    for (const [i, returnTo] of elsewhere.entries()) {
      const done = await inject(post({ token: TOKEN, return_to: returnTo }, `192.0.2.${i + 20}`));
      expect(done.headers.location, returnTo).toBe('/');
    }
    // Markup in a return address is text in the form, never a tag.
    const page = await inject({ url: `/login?return_to=${encodeURIComponent('/m"><script>')}` });
    expect(page.body).not.toContain('<script>');
    expect(page.body).toContain('value="/m&#34;&#62;&#60;script&#62;"');
  });

  it('behind the proxy the page is served at the address asked for, never sent to "/"', async () => {
    const { inject } = await build({ token: null, proxyHeader: 'x-user' });
    const page = await inject({
      url: '/map?trend=7d',
      remoteAddress: PROXY,
      headers: { ...html, 'x-user': 'ana@example.com' },
    });
    expect(page.statusCode).toBe(200);
    expect(page.headers.location).toBeUndefined();
  });
});

describe('the SSO proxy’s header', () => {
  it('alone: believed from the proxy only; no sign-in form, no Bearer challenge', async () => {
    const { inject } = await build({ token: null, proxyHeader: 'x-user' });
    const vouched = { remoteAddress: PROXY, headers: { 'x-user': 'ana@example.com' } };
    expect((await inject({ url: '/api/data', ...vouched })).statusCode).toBe(200);
    const forged = await inject({ url: '/api/data', headers: { 'x-user': 'ana@example.com' } });
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toEqual({ ok: false, error: PROXY_401 });
    expect(forged.headers['www-authenticate']).toBeUndefined();
    const page = await inject({ url: '/map', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(401);
    expect((await inject({ url: '/login', remoteAddress: PROXY })).statusCode).toBe(401);
    expect((await inject({ url: '/healthz' })).statusCode).toBe(200);
    // A bearer token means nothing without DASHBOARD_TOKEN.
    expect(
      (await inject({ url: '/api/data', headers: bearer(`Bearer ${TOKEN}`) })).statusCode,
    ).toBe(401);
  });

  it('with a token as well: either passes', async () => {
    const { inject } = await build({ proxyHeader: 'x-user' });
    const vouched = { remoteAddress: PROXY, headers: { 'x-user': 'ana@example.com' } };
    expect((await inject({ url: '/api/data', ...vouched })).statusCode).toBe(200);
    expect(
      (await inject({ url: '/api/data', headers: bearer(`Bearer ${TOKEN}`) })).statusCode,
    ).toBe(200);
    expect((await inject({ url: '/api/data', headers: { 'x-user': 'ana' } })).statusCode).toBe(401);
  });

  it('with neither configured, nothing is guarded', async () => {
    const { inject } = await build({ token: null });
    expect((await inject({ url: '/api/data' })).statusCode).toBe(200);
    expect((await inject({ url: '/login' })).statusCode).toBe(404);
  });
});
