import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret } from '../../src/server/secret.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { openAppStore } from '../helpers/history-store.js';
import { startHistoryStack, type HistoryStack } from '../helpers/history-stack.js';

/*
 * Security decisions follow what the router matched, not how the path was spelt: the router
 * decodes `/api/%77atchlists` to `/api/watchlists`, so every guard must see the same route.
 */
const TOKEN = 'q3Jx0vTq8mZ2bYl4VdN7cR1sWk9eHu5aPf6gLi2oXy0=';
const auth = { authorization: `Bearer ${TOKEN}` };
const crossSite = { ...auth, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
const valid = { name: 'Sahel', countries: ['MLI', 'NER'] };

let store: HistoryStore;
let stack: HistoryStack;
beforeAll(async () => {
  store = await openAppStore();
  stack = await startHistoryStack(store, {
    start: Date.UTC(2026, 2, 1, 8, 0, 0),
    config: {
      access: {
        dashboardToken: new Secret(TOKEN),
        trustedProxyAuthHeader: null,
        allowAnonymous: false,
      },
    },
  });
}, 60_000);
afterAll(async () => {
  await stack?.close();
  await store?.close();
});

async function listCount(): Promise<number> {
  const res = await stack.app.inject({ method: 'GET', url: '/api/watchlists', headers: auth });
  return (res.json().watchlists as unknown[]).length;
}

describe('the cross-site guard', () => {
  it('refuses a write from another site however the path is spelt', async () => {
    const before = await listCount();
    for (const url of [
      '/api/watchlists',
      '/api/%77atchlists',
      '/%61pi/watchlists',
      '/api/%77%61tchlists',
    ]) {
      const res = await stack.app.inject({
        method: 'POST',
        url,
        headers: crossSite,
        payload: valid,
      });
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toEqual({ ok: false, error: expect.stringMatching(/another site/) });
    }
    expect(await listCount()).toBe(before);
    // The same spelling from the token holder's script (no Origin) is the route itself.
    const script = await stack.app.inject({
      method: 'POST',
      url: '/api/%77atchlists',
      headers: auth,
      payload: valid,
    });
    expect(script.statusCode).toBe(201);
    const id = script.json().watchlist.id as string;
    for (const [method, url] of [
      ['PUT', `/api/%77atchlists/${id}`],
      ['DELETE', `/%61pi/watchlists/${id}`],
      ['POST', `/api/watchlists/${id}/%74est`],
      ['POST', '/api/alerts/%72ead'],
    ] as const) {
      const res = await stack.app.inject({
        method,
        url,
        headers: { ...crossSite, 'if-match': '"1"' },
        payload: method === 'POST' && url.endsWith('ead') ? { all: true } : valid,
      });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    expect(await listCount()).toBe(before + 1);
  });
});

describe('access and error answers', () => {
  it('open routes are open by the route matched; others stay closed in any spelling', async () => {
    expect((await stack.app.inject({ method: 'GET', url: '/heal%74hz' })).statusCode).toBe(200);
    for (const url of ['/api/%77atchlists', '/%61pi/status', '/metric%73']) {
      const res = await stack.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(401);
    }
    // An API path in disguise is still an API path: a 401, not the sign-in page redirect.
    const asPage = await stack.app.inject({
      method: 'GET',
      url: '/%61pi/status',
      headers: { accept: 'text/html' },
    });
    expect(asPage.statusCode).toBe(401);
  });

  it('a method a route does not take is a 405 in any spelling', async () => {
    const res = await stack.app.inject({
      method: 'PATCH',
      url: '/api/%77atchlists',
      headers: auth,
    });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, POST');
    const api = await stack.app.inject({ method: 'POST', url: '/%61pi/nothing', headers: auth });
    expect(api.statusCode).toBe(404);
    expect(api.json().error).toMatch(/No such API route/);
  });
});
