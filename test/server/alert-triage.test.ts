import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAlerts } from '../../src/server/store/alerts.js';
import { ensureSiteAlertList } from '../../src/server/store/sites-alerts.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { openAppStore } from '../helpers/history-store.js';
import { startHistoryStack, type HistoryStack } from '../helpers/history-stack.js';

/*
 * Alerts a team works through (issue 21), through the real app in proxy mode (two people by the
 * SSO header): acknowledgements with a disposition (one per alert for the team, changes kept
 * in history, concurrent changes refused), read state per person, the inbox's filters.
 */
const start = Date.UTC(2026, 2, 1, 8, 0, 0);
const USER_HEADER = 'x-forwarded-user';

let store: HistoryStore;
let stack: HistoryStack;
let listId: string;
let alertIds: string[];

const as = (user: string) => ({ [USER_HEADER]: user });

beforeAll(async () => {
  store = await openAppStore();
  stack = await startHistoryStack(store, {
    start,
    config: {
      access: {
        dashboardToken: null,
        trustedProxyAuthHeader: USER_HEADER,
        trustedProxyAddresses: ['127.0.0.1'],
        allowedHosts: ['localhost', '127.0.0.1', '::1'],
        allowAnonymous: false,
      },
    },
  });
  const created = await stack.app.inject({
    method: 'POST',
    url: '/api/watchlists',
    headers: as('ana'),
    payload: { name: 'Sahel', countries: ['MLI', 'NER'] },
  });
  expect(created.statusCode).toBe(201);
  listId = created.json().watchlist.id;
  const numbers = { as_of: new Date(start).toISOString(), risk: 50, tier: 'high', active: 40 };
  await insertAlerts(
    store.db,
    ['MLI', 'NER', 'MLI'].map((iso, i) => ({
      watchlistId: Number(listId),
      ruleKey: `active_change:${10 + i}`,
      kind: 'active_change' as const,
      iso,
      country: iso === 'MLI' ? 'Mali' : 'Niger',
      batchAsOf: new Date(start),
      message: `Active +1${i}.0`,
      before: numbers,
      after: numbers,
    })),
  );
  const inbox = await stack.app.inject({ url: '/api/alerts', headers: as('ana') });
  alertIds = inbox.json().alerts.map((a: { id: string }) => a.id);
  expect(alertIds).toHaveLength(3);
}, 60_000);
afterAll(async () => {
  await stack?.close();
  await store?.close();
});

async function acknowledge(id: string, user: string, body: object) {
  return stack.app.inject({
    method: 'POST',
    url: `/api/alerts/${id}/acknowledgement`,
    headers: as(user),
    payload: body,
  });
}

const unreadOf = async (user: string): Promise<number> =>
  (await stack.app.inject({ url: '/api/alerts/unread-count', headers: as(user) })).json().unread;

describe('read state is each person’s own', () => {
  it('one person marking an alert read leaves it unread for another', async () => {
    expect(await unreadOf('ana')).toBe(3);
    expect(await unreadOf('ben')).toBe(3);
    const marked = await stack.app.inject({
      method: 'POST',
      url: '/api/alerts/read',
      headers: as('ana'),
      payload: { ids: [alertIds[0]] },
    });
    expect(marked.json()).toMatchObject({ ok: true, marked: 1, unread: 2 });
    expect(await unreadOf('ana')).toBe(2);
    expect(await unreadOf('ben')).toBe(3);
    const unread = await stack.app.inject({ url: '/api/alerts?state=unread', headers: as('ana') });
    expect(unread.json().alerts.map((a: { id: string }) => a.id)).toEqual(alertIds.slice(1));
  });

  it('"all" marks every alert read for that person alone, with one mark', async () => {
    const all = await stack.app.inject({
      method: 'POST',
      url: '/api/alerts/read',
      headers: as('cho'),
      payload: { all: true },
    });
    expect(all.json()).toMatchObject({ marked: 3, unread: 0 });
    expect(await unreadOf('cho')).toBe(0);
    expect(await unreadOf('ben')).toBe(3);
    const listed = await stack.app.inject({ url: '/api/alerts', headers: as('cho') });
    expect(listed.json().alerts.every((a: { read_at: string | null }) => a.read_at !== null)).toBe(
      true,
    );
  });
});

describe('each list’s unread count is the asker’s own', () => {
  /** The list's `unread_alerts` for `user`, in the index and on the list's own answer. */
  const listUnread = async (user: string) => {
    const index = await stack.app.inject({ url: '/api/watchlists', headers: as(user) });
    const page = await stack.app.inject({ url: `/api/watchlists/${listId}`, headers: as(user) });
    return {
      index: index.json().watchlists.find((l: { id: string }) => l.id === listId)?.unread_alerts,
      page: page.json().watchlist.unread_alerts,
    };
  };

  it('in the index and on the list: one person marking read leaves the other’s count', async () => {
    // Ana read one alert and cho all of them (above); ben none.
    expect(await listUnread('ana')).toEqual({ index: 2, page: 2 });
    expect(await listUnread('cho')).toEqual({ index: 0, page: 0 });
    expect(await listUnread('ben')).toEqual({ index: 3, page: 3 });
    await stack.app.inject({
      method: 'POST',
      url: '/api/alerts/read',
      headers: as('ben'),
      payload: { ids: [alertIds[1]] },
    });
    expect(await listUnread('ben')).toEqual({ index: 2, page: 2 });
    expect(await listUnread('ana')).toEqual({ index: 2, page: 2 });
    expect(await listUnread('dee')).toEqual({ index: 3, page: 3 });
  });
});

describe('acknowledgements', () => {
  it('a viewer acknowledges with a disposition and a note; everyone sees who and when', async () => {
    const res = await acknowledge(alertIds[0]!, 'ana', {
      disposition: 'no_impact',
      note: 'Seen; our site in Bamako is 300 km away.\nNo action.',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().alert.acknowledgement).toEqual({
      disposition: 'no_impact',
      note: 'Seen; our site in Bamako is 300 km away.\nNo action.',
      by: 'ana',
      at: expect.stringMatching(/^\d{4}-/),
      revision: 1,
    });
    const seen = await stack.app.inject({ url: '/api/alerts', headers: as('ben') });
    const alert = seen.json().alerts.find((a: { id: string }) => a.id === alertIds[0]);
    expect(alert.acknowledgement).toMatchObject({ by: 'ana', disposition: 'no_impact' });
  });

  it('a second first acknowledgement is refused with who acknowledged (no silent overwrite)', async () => {
    const res = await acknowledge(alertIds[0]!, 'ben', { disposition: 'duplicate' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      ok: false,
      error: expect.stringMatching(/^ana acknowledged this alert at .*"replaces": 1$/),
    });
  });

  it('a change against the revision shown replaces it; the earlier one stays in history', async () => {
    const res = await acknowledge(alertIds[0]!, 'ben', {
      disposition: 'some_impact',
      replaces: 1,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().alert.acknowledgement).toMatchObject({
      by: 'ben',
      disposition: 'some_impact',
      note: null,
      revision: 2,
    });
    const stale = await acknowledge(alertIds[0]!, 'ana', { disposition: 'duplicate', replaces: 1 });
    expect(stale.statusCode).toBe(409);
    const history = await stack.app.inject({
      url: `/api/alerts/${alertIds[0]}/acknowledgements`,
      headers: as('cho'),
    });
    expect(
      history
        .json()
        .acknowledgements.map((a: { by: string; revision: number }) => [a.by, a.revision]),
    ).toEqual([
      ['ben', 2],
      ['ana', 1],
    ]);
  });

  it('filters by state and disposition (and country)', async () => {
    const ids = async (query: string): Promise<string[]> =>
      (await stack.app.inject({ url: `/api/alerts?${query}`, headers: as('ana') }))
        .json()
        .alerts.map((a: { id: string }) => a.id);
    expect(await ids('state=acknowledged')).toEqual([alertIds[0]]);
    expect(await ids('state=unacknowledged')).toEqual(alertIds.slice(1));
    expect(await ids('disposition=some_impact')).toEqual([alertIds[0]]);
    expect(await ids('disposition=no_impact')).toEqual([]);
    expect(await ids('state=unacknowledged&iso=mli')).toEqual(
      alertIds.slice(1).filter((_, i) => i === 1),
    );
  });

  it('bad input is a 400 naming what was wrong; an alert out of sight is a 404', async () => {
    const cases: Array<[object, RegExp]> = [
      [{ disposition: 'meh' }, /^disposition must be one of "no_impact"/],
      [{ disposition: 'duplicate', note: 'x'.repeat(1001) }, /note must be at most 1000/],
      [{ disposition: 'duplicate', note: 'a\u202Eb' }, /note must not contain .*U\+202E/],
      [{ disposition: 'duplicate', by: 'someone else' }, /by/],
      [{ disposition: 'duplicate', replaces: 'one' }, /replaces must be/],
    ];
    for (const [body, words] of cases) {
      const res = await acknowledge(alertIds[1]!, 'ana', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toEqual({ ok: false, error: expect.stringMatching(words) });
    }
    for (const [url, query] of [
      ['/api/alerts', 'state=read'],
      ['/api/alerts', 'disposition=fine'],
      ['/api/alerts', 'state=unacknowledged&disposition=duplicate'],
    ] as const) {
      const res = await stack.app.inject({ url: `${url}?${query}`, headers: as('ana') });
      expect(res.statusCode, query).toBe(400);
    }
    expect((await acknowledge('99999', 'ana', { disposition: 'duplicate' })).statusCode).toBe(404);
    expect((await acknowledge('x1', 'ana', { disposition: 'duplicate' })).statusCode).toBe(400);
  });

  it('an alert of someone’s personal list cannot be acknowledged by anyone else', async () => {
    const mine = await stack.app.inject({
      method: 'POST',
      url: '/api/watchlists',
      headers: as('dee'),
      payload: { name: 'Mine', countries: ['TCD'], scope: 'user' },
    });
    const numbers = { as_of: new Date(start).toISOString(), risk: 1, tier: 'low', active: 1 };
    await insertAlerts(store.db, [
      {
        watchlistId: Number(mine.json().watchlist.id),
        ruleKey: 'breaking_event',
        kind: 'breaking_event',
        iso: 'TCD',
        country: 'Chad',
        batchAsOf: new Date(start),
        message: 'Breaking',
        before: null,
        after: numbers,
      },
    ]);
    const [own] = (await stack.app.inject({ url: '/api/alerts?iso=TCD', headers: as('dee') }))
      .json()
      .alerts.map((a: { id: string }) => a.id);
    expect((await acknowledge(own, 'ana', { disposition: 'duplicate' })).statusCode).toBe(404);
    expect((await acknowledge(own, 'dee', { disposition: 'duplicate' })).statusCode).toBe(200);
  });
});

// Last: its alerts would change the inbox the tests above count.
describe('"Our sites" unread count is the asker’s own (issue 21)', () => {
  it('the site alerts’ delivery settings show the asker’s unread count, not the team’s', async () => {
    const sitesList = await ensureSiteAlertList(store.db);
    const numbers = { as_of: new Date(start).toISOString(), risk: 70, tier: 'crit', active: 60 };
    await insertAlerts(
      store.db,
      ['UKR', 'BLR'].map((iso) => ({
        watchlistId: sitesList.id,
        ruleKey: `site:${iso}`,
        kind: 'active_change' as const,
        iso,
        country: iso,
        batchAsOf: new Date(start),
        message: `Sites near ${iso}`,
        before: numbers,
        after: numbers,
      })),
    );
    const delivery = async (user: string) =>
      (await stack.app.inject({ url: '/api/sites/alert-delivery', headers: as(user) })).json()
        .watchlist.unread_alerts;
    await stack.app.inject({
      method: 'POST',
      url: '/api/alerts/read',
      headers: as('eve'),
      payload: { all: true },
    });
    expect(await delivery('eve')).toBe(0);
    expect(await delivery('fay')).toBe(2);
  });
});
