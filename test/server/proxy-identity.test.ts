import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret } from '../../src/server/secret.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { openAppStore } from '../helpers/history-store.js';
import { startHistoryStack, type HistoryStack } from '../helpers/history-stack.js';

/*
 * DASHBOARD_TOKEN and TRUSTED_PROXY_AUTH_HEADER together: the token lets a script in, but only
 * the proxy (TRUSTED_PROXY_ADDRESSES) may say who the person is. From anywhere else the header
 * is ignored, so a token holder cannot act as an SSO user (their personal watchlists).
 */
const TOKEN = 'q3Jx0vTq8mZ2bYl4VdN7cR1sWk9eHu5aPf6gLi2oXy0=';
const PROXY = '10.9.9.9';
const ELSEWHERE = '10.0.0.7';

let store: HistoryStore;
let stack: HistoryStack;
beforeAll(async () => {
  store = await openAppStore();
  stack = await startHistoryStack(store, {
    start: Date.UTC(2026, 2, 1, 8, 0, 0),
    config: {
      access: {
        dashboardToken: new Secret(TOKEN),
        trustedProxyAuthHeader: 'x-forwarded-user',
        trustedProxyAddresses: [PROXY],
        allowAnonymous: false,
      },
    },
  });
}, 60_000);
afterAll(async () => {
  await stack?.close();
  await store?.close();
});

const viaProxy = (user: string) => ({
  remoteAddress: PROXY,
  headers: { 'x-forwarded-user': user },
});
const tokenHolderClaiming = (user: string) => ({
  remoteAddress: ELSEWHERE,
  headers: { authorization: `Bearer ${TOKEN}`, 'x-forwarded-user': user },
});
const personal = { name: 'Ana only', countries: ['MLI'], scope: 'user' };

describe('the SSO identity header with a dashboard token', () => {
  it('names the person only on connections from TRUSTED_PROXY_ADDRESSES', async () => {
    const mine = await stack.app.inject({
      method: 'POST',
      url: '/api/watchlists',
      payload: personal,
      ...viaProxy('ana'),
    });
    expect(mine.statusCode).toBe(201);
    const id = mine.json().watchlist.id as string;

    // The token gets the holder in, but the header they add is not believed.
    const listed = await stack.app.inject({
      method: 'GET',
      url: '/api/watchlists',
      ...tokenHolderClaiming('ana'),
    });
    expect(listed.statusCode).toBe(200);
    expect(listed.json().watchlists.map((w: { id: string }) => w.id)).not.toContain(id);
    const read = await stack.app.inject({
      method: 'GET',
      url: `/api/watchlists/${id}`,
      ...tokenHolderClaiming('ana'),
    });
    expect(read.statusCode).toBe(404);
    const removed = await stack.app.inject({
      method: 'DELETE',
      url: `/api/watchlists/${id}`,
      ...tokenHolderClaiming('ana'),
      headers: { ...tokenHolderClaiming('ana').headers, 'if-match': '"1"' },
    });
    expect(removed.statusCode).toBe(404);
    // Nor can they make a personal list in someone's name.
    const forged = await stack.app.inject({
      method: 'POST',
      url: '/api/watchlists',
      payload: personal,
      ...tokenHolderClaiming('ana'),
    });
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toEqual({ ok: false, error: expect.stringMatching(/personal|user/i) });

    // Ana, through the proxy, still has her list.
    const hers = await stack.app.inject({
      method: 'GET',
      url: `/api/watchlists/${id}`,
      ...viaProxy('ana'),
    });
    expect(hers.statusCode).toBe(200);
  });

  it('an edit cannot move a list between team and personal; without scope it keeps its own', async () => {
    const put = (id: string, version: string, payload: object) =>
      stack.app.inject({
        method: 'PUT',
        url: `/api/watchlists/${id}`,
        payload,
        remoteAddress: PROXY,
        headers: { 'x-forwarded-user': 'ana', 'if-match': version },
      });
    const make = async (scope: string) => {
      const res = await stack.app.inject({
        method: 'POST',
        url: '/api/watchlists',
        payload: { name: `${scope} list`, countries: ['MLI'], scope },
        ...viaProxy('ana'),
      });
      expect(res.statusCode).toBe(201);
      return { id: res.json().watchlist.id as string, etag: res.headers.etag as string };
    };
    const team = await make('team');
    const mine = await make('user');
    const toUser = await put(team.id, team.etag, { name: 'x', countries: ['MLI'], scope: 'user' });
    expect(toUser.statusCode).toBe(400);
    expect(toUser.json()).toEqual({
      ok: false,
      error: expect.stringMatching(/^scope: this is a team list/),
    });
    const toTeam = await put(mine.id, mine.etag, { name: 'x', countries: ['MLI'], scope: 'team' });
    expect(toTeam.statusCode).toBe(400);
    expect(toTeam.json().error).toMatch(/^scope: this is a user list/);
    // Nothing was changed by the refused edits; the same scope, or none, is an ordinary edit.
    const same = await put(mine.id, mine.etag, {
      name: 'renamed',
      countries: ['MLI'],
      scope: 'user',
    });
    expect(same.statusCode).toBe(200);
    expect(same.json().watchlist).toMatchObject({ name: 'renamed', scope: 'user' });
    const none = await put(team.id, team.etag, { name: 'renamed', countries: ['MLI'] });
    expect(none.statusCode).toBe(200);
    expect(none.json().watchlist).toMatchObject({ name: 'renamed', scope: 'team' });
  });

  it('without the token, the header from elsewhere lets nobody in', async () => {
    const res = await stack.app.inject({
      method: 'GET',
      url: '/api/watchlists',
      remoteAddress: ELSEWHERE,
      headers: { 'x-forwarded-user': 'ana' },
    });
    expect(res.statusCode).toBe(401);
  });
});
