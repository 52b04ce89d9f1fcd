import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { openAppStore } from '../helpers/history-store.js';
import { startHistoryStack, type HistoryStack } from '../helpers/history-stack.js';
import { proxyUserAccess } from '../helpers/roles-proxy.js';

/*
 * The watchlist API through the real app (buildApp over a real demo upstream, a real store):
 * its 400/404/412/428 table, ETags, visibility of personal lists, the cross-site refusal.
 */
const start = Date.UTC(2026, 2, 1, 8, 0, 0);
const USER_HEADER = 'x-forwarded-user';
const TOKEN = 'a-dashboard-token-of-some-length';

let store: HistoryStore;
let stack: HistoryStack;
beforeAll(async () => {
  store = await openAppStore();
  stack = await startHistoryStack(store, {
    start,
    config: {
      access: proxyUserAccess,
    },
  });
}, 60_000);
afterAll(async () => {
  await stack?.close();
  await store?.close();
});

const as = (user: string) => ({ [USER_HEADER]: user });
const valid = { name: 'Sahel', countries: ['MLI', 'NER', 'bfa'] };

async function create(body: unknown, user = 'ana') {
  return stack.app.inject({
    method: 'POST',
    url: '/api/watchlists',
    headers: as(user),
    payload: body as object,
  });
}

describe('methods', () => {
  it('a method a watchlist route does not take is a 405 naming the ones it does', async () => {
    const list = await stack.app.inject({
      method: 'PATCH',
      url: '/api/watchlists',
      headers: as('ana'),
    });
    expect(list.statusCode).toBe(405);
    expect(list.headers.allow).toBe('GET, HEAD, POST');
    const one = await stack.app.inject({
      method: 'POST',
      url: '/api/watchlists/1',
      headers: as('ana'),
    });
    expect(one.statusCode).toBe(405);
    expect(one.headers.allow).toBe('GET, HEAD, PUT, DELETE');
    expect(one.json()).toEqual({
      ok: false,
      error: expect.stringMatching(/use GET or PUT or DELETE/),
    });
  });
});

describe('watchlist CRUD', () => {
  it('creates a list with the default rule and answers with its ETag', async () => {
    const res = await create(valid);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.watchlist).toMatchObject({
      name: 'Sahel',
      countries: ['MLI', 'NER', 'BFA'],
      rules: [{ kind: 'active_change', min_abs_delta: 10 }],
      scope: 'team',
      version: 1,
    });
    expect(res.headers.etag).toBe('"1"');
    expect(body.webhook_secret).toBeUndefined();
    const read = await stack.app.inject({
      url: `/api/watchlists/${body.watchlist.id}`,
      headers: as('bo'),
    });
    expect(read.statusCode).toBe(200);
    expect(read.headers.etag).toBe('"1"');
  });

  const bad: Array<[string, unknown, RegExp]> = [
    ['no body fields', {}, /name/],
    ['an empty name', { ...valid, name: '  ' }, /name must not be empty/],
    ['a name over 80 characters', { ...valid, name: 'x'.repeat(81) }, /at most 80/],
    ['no countries', { ...valid, countries: [] }, /at least one country/],
    ['101 countries', { ...valid, countries: Array(101).fill('MLI') }, /at most 100/],
    ['an unknown code', { ...valid, countries: ['MLI', 'XYZ'] }, /XYZ is not a known country code/],
    ['a malformed code', { ...valid, countries: ['ML1'] }, /not an ISO 3166-1 alpha-3 code/],
    ['a duplicate', { ...valid, countries: ['MLI', 'mli'] }, /MLI is listed twice/],
    [
      'an out-of-range rule',
      { ...valid, rules: [{ kind: 'active_change', min_abs_delta: 500 }] },
      /at most 100/,
    ],
    ['an unknown rule kind', { ...valid, rules: [{ kind: 'moon_phase' }] }, /kind/],
    [
      'a rule with a bad direction',
      { ...valid, rules: [{ kind: 'tier_change', direction: 'sideways' }] },
      /direction/,
    ],
    [
      'a duplicate rule',
      { ...valid, rules: [{ kind: 'breaking_event' }, { kind: 'breaking_event' }] },
      /listed twice/,
    ],
    ['an unknown field', { ...valid, colour: 'red' }, /colour|Unrecognized/i],
    ['a bad e-mail', { ...valid, email: 'not-an-address' }, /email/],
    ['an http webhook', { ...valid, webhook_url: 'http://hooks.example.com/x' }, /https/],
    ['a loopback webhook', { ...valid, webhook_url: 'https://127.0.0.1/x' }, /loopback, private/],
    [
      'a metadata webhook',
      { ...valid, webhook_url: 'https://169.254.169.254/latest' },
      /loopback, private or link-local/,
    ],
    ['a localhost webhook', { ...valid, webhook_url: 'https://localhost/x' }, /localhost/],
    [
      'credentials in the webhook',
      { ...valid, webhook_url: 'https://u:p@hooks.example.com/' },
      /user name or password/,
    ],
    ['an array body', [valid], /JSON object/],
  ];
  it.each(bad)('refuses %s with a 400 in plain words', async (_what, body, words) => {
    const res = await create(body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ ok: false, error: expect.stringMatching(words) });
  });

  it('refuses unknown query parameters and bad ids', async () => {
    expect(
      (await stack.app.inject({ url: '/api/watchlists?all=1', headers: as('ana') })).statusCode,
    ).toBe(400);
    const bad = await stack.app.inject({ url: '/api/watchlists/abc', headers: as('ana') });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/positive whole number/);
    const missing = await stack.app.inject({ url: '/api/watchlists/999999', headers: as('ana') });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ ok: false, error: 'No watchlist with id 999999' });
  });

  it('detects a concurrent edit: 428 without If-Match, 412 with a stale one, never lost', async () => {
    const id = (await create({ ...valid, name: 'Edit me' })).json().watchlist.id;
    const put = (ifMatch: string | undefined, name: string) =>
      stack.app.inject({
        method: 'PUT',
        url: `/api/watchlists/${id}`,
        headers: { ...as('ana'), ...(ifMatch ? { 'if-match': ifMatch } : {}) },
        payload: { ...valid, name },
      });
    expect((await put(undefined, 'A')).statusCode).toBe(428);
    expect((await put('yesterday', 'A')).statusCode).toBe(400);
    const first = await put('"1"', 'First editor');
    expect(first.statusCode).toBe(200);
    expect(first.headers.etag).toBe('"2"');
    const second = await put('"1"', 'Second editor');
    expect(second.statusCode).toBe(412);
    expect(second.json().error).toMatch(/changed by someone else/);
    const now = await stack.app.inject({ url: `/api/watchlists/${id}`, headers: as('ana') });
    expect(now.json().watchlist.name).toBe('First editor');

    const del = (ifMatch: string) =>
      stack.app.inject({
        method: 'DELETE',
        url: `/api/watchlists/${id}`,
        headers: { ...as('ana'), 'if-match': ifMatch },
      });
    expect((await del('"1"')).statusCode).toBe(412);
    expect((await del('"2"')).statusCode).toBe(200);
    expect(
      (await stack.app.inject({ url: `/api/watchlists/${id}`, headers: as('ana') })).statusCode,
    ).toBe(404);
  });

  it('keeps a personal list to its owner; team lists are everyone’s', async () => {
    const mine = (await create({ ...valid, name: 'Mine', scope: 'user' }, 'carla')).json()
      .watchlist;
    expect(mine).toMatchObject({ scope: 'user', owner: 'carla' });
    const other = await stack.app.inject({ url: `/api/watchlists/${mine.id}`, headers: as('dan') });
    expect(other.statusCode).toBe(404);
    const list = (who: string) =>
      stack.app
        .inject({ url: '/api/watchlists', headers: as(who) })
        .then((r) => r.json().watchlists.map((w: { name: string }) => w.name));
    expect(await list('carla')).toContain('Mine');
    expect(await list('dan')).not.toContain('Mine');
    expect(await list('dan')).toContain('Sahel');
  });

  it('shows the webhook secret once, at creation, never again', async () => {
    const res = await create({
      ...valid,
      name: 'Hooked',
      webhook_url: 'https://hooks.example.com/risk',
    });
    const { watchlist, webhook_secret } = res.json();
    expect(webhook_secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(watchlist.webhook).toMatchObject({
      url: 'https://hooks.example.com/risk',
      format: 'standard',
    });
    const again = await stack.app.inject({
      url: `/api/watchlists/${watchlist.id}`,
      headers: as('ana'),
    });
    expect(again.body).not.toContain(webhook_secret.slice(6));
    const listed = await stack.app.inject({ url: '/api/watchlists', headers: as('ana') });
    expect(listed.body).not.toContain(webhook_secret.slice(6));
    const edited = await stack.app.inject({
      method: 'PUT',
      url: `/api/watchlists/${watchlist.id}`,
      headers: { ...as('ana'), 'if-match': '"1"' },
      payload: { ...valid, name: 'Hooked', webhook_url: 'https://hooks.example.com/other' },
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().webhook_secret).toBeUndefined();
  });
});

describe('cross-site requests', () => {
  it('refuses a browser request from another site or origin; same-origin passes', async () => {
    const post = (headers: Record<string, string>) =>
      stack.app.inject({
        method: 'POST',
        url: '/api/watchlists',
        headers: { ...as('ana'), ...headers },
        payload: valid,
      });
    const fromSite = await post({ 'sec-fetch-site': 'cross-site' });
    expect(fromSite.statusCode).toBe(403);
    expect(fromSite.json().error).toMatch(/another site/);
    expect((await post({ 'sec-fetch-site': 'same-site' })).statusCode).toBe(403);
    expect((await post({ origin: 'https://evil.example' })).statusCode).toBe(403);
    expect(
      (await post({ origin: 'http://localhost:80', 'sec-fetch-site': 'same-origin' })).statusCode,
    ).toBe(201);
  });
});

describe('bearer-token scripts', () => {
  let tokenStack: HistoryStack;
  let tokenStore: HistoryStore;
  beforeAll(async () => {
    tokenStore = await openAppStore();
    tokenStack = await startHistoryStack(tokenStore, {
      start,
      config: {
        access: {
          dashboardToken: new (await import('../../src/server/secret.js')).Secret(TOKEN),
          trustedProxyAuthHeader: null,
          allowAnonymous: false,
        },
      },
    });
  }, 60_000);
  afterAll(async () => {
    await tokenStack?.close();
    await tokenStore?.close();
  });

  it('still work (no Origin), while a cross-site browser post is refused', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    const ok = await tokenStack.app.inject({
      method: 'POST',
      url: '/api/watchlists',
      headers: auth,
      payload: valid,
    });
    expect(ok.statusCode).toBe(201);
    const forged = await tokenStack.app.inject({
      method: 'POST',
      url: '/api/watchlists',
      headers: { ...auth, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      payload: valid,
    });
    expect(forged.statusCode).toBe(403);
    const personal = await tokenStack.app.inject({
      method: 'POST',
      url: '/api/watchlists',
      headers: auth,
      payload: { ...valid, scope: 'user' },
    });
    expect(personal.statusCode).toBe(400);
    expect(personal.json().error).toMatch(/TRUSTED_PROXY_AUTH_HEADER/);
  });
});
