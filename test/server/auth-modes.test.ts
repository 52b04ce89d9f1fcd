import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isWrite, type RegisteredRoute } from '../../src/server/plugins/roles.js';
import { insertAlerts } from '../../src/server/store/alerts.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import type { Role } from '../../src/shared/roles.js';
import { AUTH_MODES, credentialsFor, type AuthMode } from '../helpers/auth-modes.js';
import { openAppStore } from '../helpers/history-store.js';
import { startHistoryStack, type HistoryStack } from '../helpers/history-stack.js';

/*
 * "Every existing test still passes in token mode and in proxy mode" (issue 21), shown where it
 * matters and in seconds: the same app in each access mode (none; DASHBOARD_TOKEN, clients
 * sending the token; TRUSTED_PROXY_AUTH_HEADER, clients sending the proxy's user and groups from
 * the trusted address), each on its own store filled the same way. Every GET route registered
 * answers the same in all three; every write route reaches its handler with the same answer for
 * an identity with its role, and without credentials is refused with a 401 in plain words. Any
 * other history-stack test file runs in a mode with TEST_AUTH_MODE=token|proxy.
 */
const start = Date.UTC(2026, 2, 1, 8, 0, 0);

/** Routes whose answer is about who asks (compared by status only where it is the same). */
const ABOUT_THE_ASKER: Record<string, string> = {
  '/api/me': 'names the person or token',
  '/api/me/settings': 'a person’s own; a token has none (400)',
  '/api/audit': 'the seed writes name who made them',
  '/api/spreadsheet/audit.csv': 'the same as a spreadsheet',
};
/** Routes whose answer counts this process's own traffic (compared by status and type). */
const COUNTS_TRAFFIC = new Set(['/api/status', '/metrics']);

interface Seeded {
  listId: string;
  alertId: string;
  batchId: string;
}

const stacks = {} as Record<AuthMode, HistoryStack>;
const stores: HistoryStore[] = [];
const seeded = {} as Record<AuthMode, Seeded>;

/** The same team list and alerts in each mode's store, written through the mode's own client. */
async function seed(stack: HistoryStack, store: HistoryStore): Promise<Seeded> {
  const created = await stack.app.inject({
    method: 'POST',
    url: '/api/watchlists',
    payload: { name: 'Sahel', countries: ['MLI', 'NER'] },
  });
  expect(created.statusCode, created.body).toBe(201);
  const listId = created.json().watchlist.id as string;
  const numbers = { as_of: new Date(start).toISOString(), risk: 61, tier: 'high', active: 52 };
  await insertAlerts(
    store.db,
    ['MLI', 'NER'].map((iso) => ({
      watchlistId: Number(listId),
      ruleKey: 'active_change:10',
      kind: 'active_change' as const,
      iso,
      country: iso === 'MLI' ? 'Mali' : 'Niger',
      batchAsOf: new Date(start),
      message: 'Active +12.0 (40.0 → 52.0)',
      before: numbers,
      after: numbers,
      createdAt: new Date(start),
    })),
  );
  const alerts = (await stack.app.inject({ url: '/api/alerts' })).json().alerts;
  const batches = (await stack.app.inject({ url: '/api/batches?limit=1' })).json().batches;
  return { listId, alertId: alerts[0].id, batchId: batches[0].id };
}

beforeAll(async () => {
  await Promise.all(
    AUTH_MODES.map(async (mode) => {
      const store = await openAppStore();
      stores.push(store);
      stacks[mode] = await startHistoryStack(store, { start, auth: mode });
      seeded[mode] = await seed(stacks[mode], store);
    }),
  );
}, 60_000);
afterAll(async () => {
  await Promise.all(Object.values(stacks).map((s) => s.close()));
  await Promise.all(stores.map((s) => s.close()));
});

/**
 * An answer's body with the times the database's own clock wrote (a watchlist's created_at and
 * updated_at are its now(), not the test clock) replaced: they differ between stores by
 * milliseconds. Every time from the test clock stays.
 */
const withoutWallClock = (body: string): string =>
  body.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g, (at) =>
    Math.abs(Date.parse(at) - Date.now()) < 3_600_000 ? '<written at>' : at,
  );

/** A concrete URL for a registered route: its parameters filled with the seeded ids. */
function urlOf(route: RegisteredRoute, ids: Seeded): string {
  const id = route.url.startsWith('/api/watchlists/')
    ? ids.listId
    : route.url.startsWith('/api/alerts/')
      ? ids.alertId
      : route.url.startsWith('/api/batches/')
        ? ids.batchId
        : '1';
  return route.url
    .replace(':iso', 'MLI')
    .replace(':id', id)
    .replace(/\*$/, route.url === '/api/*' ? 'no-such-route' : 'MLI');
}

/** The open mode's routes: every one the app has without access control. */
const routesOf = (filter: (route: RegisteredRoute) => boolean): RegisteredRoute[] =>
  stacks.open.app.registeredRoutes().filter(filter);

describe('every GET route', () => {
  it('answers the same data in the open, token and proxy modes', async () => {
    const gets = routesOf((r) => r.method === 'GET');
    expect(gets.length).toBeGreaterThan(40);
    let same = 0;
    for (const route of gets) {
      const answers = await Promise.all(
        AUTH_MODES.map((mode) => stacks[mode].app.inject({ url: urlOf(route, seeded[mode]) })),
      );
      const [open, ...others] = answers.map((a) => ({
        status: a.statusCode,
        type: a.headers['content-type'],
        body: withoutWallClock(a.body),
      }));
      for (const [i, other] of others.entries()) {
        const what = `${route.url} in ${AUTH_MODES[i + 1]} mode`;
        if (ABOUT_THE_ASKER[route.url] !== undefined) {
          expect(other.status, what).toBeLessThan(500);
        } else if (COUNTS_TRAFFIC.has(route.url)) {
          expect({ status: other.status, type: other.type }, what).toEqual({
            status: open!.status,
            type: open!.type,
          });
        } else {
          expect(other, what).toEqual(open);
          if (open!.status === 200) same += 1;
        }
      }
    }
    // Most of them with data: the comparison is of real answers, not of refusals.
    expect(same / 2).toBeGreaterThanOrEqual(30);
  });

  it('in token and proxy mode, refuses a client without credentials with a 401 in plain words', async () => {
    for (const mode of ['token', 'proxy'] as const) {
      for (const route of routesOf((r) => r.method === 'GET' && !r.signInFree)) {
        const answer = await stacks[mode].anonymousInject({
          url: urlOf(route, seeded[mode]),
          headers: { accept: 'application/json' },
        });
        expect(answer.statusCode, `${route.url} in ${mode} mode`).toBe(401);
        expect(answer.json()).toEqual({
          ok: false,
          error: expect.stringMatching(/^Sign-in required: /),
        });
      }
    }
  });
});

describe('every write route', () => {
  /**
   * An editor, or an admin where the route needs one: a viewer's writes are personal ones, which
   * no token has (roles.test.ts walks the roles below each route's).
   */
  const roleOf = (route: RegisteredRoute): Role => (route.role === 'admin' ? 'admin' : 'editor');

  it('is refused without credentials with a 401 in plain words, in token and proxy mode', async () => {
    for (const mode of ['token', 'proxy'] as const) {
      for (const route of routesOf((r) => isWrite(r.method) && !r.signInFree)) {
        const answer = await stacks[mode].anonymousInject({
          method: route.method as 'POST',
          url: urlOf(route, seeded[mode]),
          payload: {},
        });
        expect(answer.statusCode, `${route.method} ${route.url} in ${mode} mode`).toBe(401);
        expect(answer.json().error).toMatch(/^Sign-in required: /);
      }
    }
  });

  it('reaches its handler with the same answer in each mode for an identity with its role', async () => {
    const writes = routesOf((r) => isWrite(r.method) && !r.signInFree);
    expect(writes.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining(['POST /api/watchlists', 'PUT /api/sites/:id', 'POST /api/tokens']),
    );
    for (const route of writes) {
      const answers = await Promise.all(
        AUTH_MODES.map((mode) =>
          // The token is an admin; the proxy's person is an editor, or an admin where needed.
          stacks[mode].anonymousInject({
            method: route.method as 'POST',
            url: urlOf(route, seeded[mode]),
            headers: credentialsFor(mode, mode === 'token' ? 'admin' : roleOf(route)),
            payload: {},
          }),
        ),
      );
      for (const [i, answer] of answers.entries()) {
        const what = `${route.method} ${route.url} in ${AUTH_MODES[i]} mode: ${answer.body}`;
        // The handler's own answer to an empty body, never the access or role check's.
        expect(answer.statusCode, what).not.toBe(401);
        expect(answer.statusCode, what).not.toBe(403);
        expect(answer.statusCode, what).toBeLessThan(500);
        if (route.url !== '/api/me/settings') {
          expect({ status: answer.statusCode, body: withoutWallClock(answer.body) }, what).toEqual({
            status: answers[0]!.statusCode,
            body: withoutWallClock(answers[0]!.body),
          });
        }
      }
    }
  });

  it('makes the same team list in each mode, seen the same way by every mode', async () => {
    const made = await Promise.all(
      AUTH_MODES.map((mode) =>
        stacks[mode].app.inject({
          method: 'POST',
          url: '/api/watchlists',
          payload: { name: 'Horn', countries: ['SOM', 'ETH'] },
        }),
      ),
    );
    expect(made.map((m) => m.statusCode)).toEqual([201, 201, 201]);
    const lists = await Promise.all(
      AUTH_MODES.map(async (mode) =>
        withoutWallClock((await stacks[mode].app.inject('/api/watchlists')).body),
      ),
    );
    expect(new Set(lists).size).toBe(1);
    expect(lists[0]).toContain('"name":"Horn"');
  });
});
