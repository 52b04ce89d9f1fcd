import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectRoutes, installRoles, isWrite } from '../../src/server/plugins/roles.js';
import { Secret } from '../../src/server/secret.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { ROLES, roleAtLeast, type Role } from '../../src/shared/roles.js';
import { startHistoryStack, type HistoryStack } from '../helpers/history-stack.js';
import { openAppStore } from '../helpers/history-store.js';

/*
 * Roles on the server (issue 21), through the whole app behind an SSO proxy whose groups header
 * names each person's role: every registered write route refuses the roles below the one it
 * declares, a team list or a webhook needs an editor, API tokens and sessions need an admin.
 */
const USER = 'x-forwarded-user';
const GROUPS = 'x-forwarded-groups';
const TOKEN = 'q3Jx0vTq8mZ2bYl4VdN7cR1sWk9eHu5aPf6gLi2oXy0=';
const GROUP_OF: Record<Role, string> = {
  viewer: 'staff',
  editor: 'risk-editors',
  admin: 'risk-admins',
};
const as = (role: Role, user = `${role}-person`) => ({
  [USER]: user,
  [GROUPS]: `staff, ${GROUP_OF[role]}`,
});

let store: HistoryStore;
let stack: HistoryStack;
beforeAll(async () => {
  store = await openAppStore();
  stack = await startHistoryStack(store, {
    start: Date.UTC(2026, 2, 1, 8),
    config: {
      access: {
        dashboardToken: new Secret(TOKEN),
        trustedProxyAuthHeader: USER,
        trustedProxyGroupsHeader: GROUPS,
        // inject's requests come from 127.0.0.1: the headers are believed only from the proxy.
        trustedProxyAddresses: ['127.0.0.1'],
        roles: { editors: ['risk-editors'], admins: ['risk-admins'] },
        allowAnonymous: false,
      },
    },
  });
}, 60_000);
afterAll(async () => {
  await stack?.close();
  await store?.close();
});

describe('every write route', () => {
  it('declares a role and refuses each role below it with a 403 in plain words', async () => {
    const writes = stack.app
      .registeredRoutes()
      .filter((route) => isWrite(route.method) && !route.signInFree);
    // The list is Fastify's own (every route as registered), not one written here.
    expect(writes.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining([
        'POST /api/watchlists',
        'POST /api/tokens',
        'DELETE /api/sessions/:id',
      ]),
    );
    for (const route of writes) {
      expect(route.role, `${route.method} ${route.url} declares no role`).toBeDefined();
      const needed = route.role as Role;
      for (const role of ROLES.filter((r) => !roleAtLeast(r, needed))) {
        const answer = await stack.app.inject({
          method: route.method as 'POST',
          url: route.url.replace(/:(\w+)/g, '1'),
          headers: as(role),
          payload: {},
        });
        expect(answer.statusCode, `${role} on ${route.method} ${route.url}`).toBe(403);
        expect(answer.json().error).toBe(
          `Your role (${role}) may not do this: it needs ${needed === 'admin' ? 'an admin' : `an ${needed} or above`}. Ask an admin if you need it.`,
        );
      }
    }
  });

  it('a write route that declares no role is refused to everyone, admins included', async () => {
    const app = Fastify();
    collectRoutes(app);
    installRoles(app);
    app.post('/undeclared', async () => ({ ok: true }));
    app.post('/declared', { config: { role: 'viewer' } }, async () => ({ ok: true }));
    app.get('/read', async () => ({ ok: true }));
    const post = await app.inject({ method: 'POST', url: '/undeclared' });
    expect(post.statusCode).toBe(403);
    expect(post.json().error).toBe('Nobody may do this: the action declares no role');
    expect((await app.inject({ method: 'POST', url: '/declared' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/read' })).statusCode).toBe(200);
    await app.close();
  });
});

describe('watchlists by role', () => {
  const list = { name: 'Sahel', countries: ['MLI', 'NER'] };
  const post = (role: Role, body: object) =>
    stack.app.inject({ method: 'POST', url: '/api/watchlists', headers: as(role), payload: body });

  it('a viewer keeps personal lists but may not make team lists or webhooks; an editor may', async () => {
    const team = await post('viewer', list);
    expect(team.statusCode).toBe(403);
    expect(team.json().error).toMatch(/^Your role \(viewer\) may not change the team's watchlists/);
    const hook = await post('viewer', {
      ...list,
      scope: 'user',
      webhook_url: 'https://hooks.example.com/x',
    });
    expect(hook.statusCode).toBe(403);
    expect(hook.json().error).toMatch(/^Your role \(viewer\) may not set webhooks/);
    expect((await post('viewer', { ...list, scope: 'user' })).statusCode).toBe(201);
    const made = await post('editor', list);
    expect(made.statusCode).toBe(201);

    // The team's list, once made, is the editor's to delete, not the viewer's.
    const { id } = made.json().watchlist as { id: string };
    const etag = made.headers.etag as string;
    const remove = (role: Role) =>
      stack.app.inject({
        method: 'DELETE',
        url: `/api/watchlists/${id}`,
        headers: { ...as(role), 'if-match': etag },
      });
    expect((await remove('viewer')).statusCode).toBe(403);
    expect((await remove('editor')).statusCode).toBe(200);
  });
});

describe('/api/me', () => {
  it('says who is asking, their role and how they got in', async () => {
    const me = await stack.app.inject({ url: '/api/me', headers: as('editor', 'ana') });
    expect(me.json()).toEqual({
      ok: true,
      name: 'ana',
      email: null,
      role: 'editor',
      via: 'proxy',
      sign_out: null,
    });
    const token = await stack.app.inject({
      url: '/api/me',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(token.json()).toMatchObject({
      role: 'admin',
      via: 'dashboard-token',
      sign_out: '/logout',
    });
    // Without a group that maps, a person is a viewer.
    const plain = await stack.app.inject({
      url: '/api/me',
      headers: { [USER]: 'bo', [GROUPS]: 'staff' },
    });
    expect(plain.json()).toMatchObject({ role: 'viewer' });
  });
});

describe('API tokens', () => {
  it('an admin makes one with a role and an expiry, sees it once, lists it without the secret, revokes it', async () => {
    const made = await stack.app.inject({
      method: 'POST',
      url: '/api/tokens',
      headers: as('admin'),
      payload: { name: 'nightly export', role: 'editor', expires_in_days: 30 },
    });
    expect(made.statusCode).toBe(201);
    const { secret, token } = made.json() as {
      secret: string;
      token: { id: string; expires_at: string };
    };
    expect(secret).toMatch(/^grd_[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(token.expires_at) - stack.clock.now()).toBe(30 * 86_400_000);

    const bearer = { authorization: `Bearer ${secret}` };
    const me = await stack.app.inject({ url: '/api/me', headers: bearer });
    expect(me.json()).toMatchObject({
      role: 'editor',
      via: 'api-token',
      name: 'API token “nightly export”',
    });
    // Its role holds: an editor token may not make tokens.
    const escalate = await stack.app.inject({
      method: 'POST',
      url: '/api/tokens',
      headers: bearer,
      payload: { name: 'x', role: 'admin', expires_in_days: 1 },
    });
    expect(escalate.statusCode).toBe(403);

    const listed = await stack.app.inject({ url: '/api/tokens', headers: as('admin') });
    expect(listed.json().tokens).toEqual([
      expect.objectContaining({ id: token.id, name: 'nightly export', role: 'editor' }),
    ]);
    expect(listed.body).not.toContain(secret);
    expect(listed.body).not.toContain(secret.slice(4));

    const revoked = await stack.app.inject({
      method: 'DELETE',
      url: `/api/tokens/${token.id}`,
      headers: as('admin'),
    });
    expect(revoked.statusCode).toBe(200);
    expect((await stack.app.inject({ url: '/api/me', headers: bearer })).statusCode).toBe(401);
  });

  it('expires on its date', async () => {
    const made = await stack.app.inject({
      method: 'POST',
      url: '/api/tokens',
      headers: as('admin'),
      payload: { name: 'short', role: 'viewer', expires_in_days: 1 },
    });
    const bearer = { authorization: `Bearer ${made.json().secret}` };
    expect((await stack.app.inject({ url: '/api/me', headers: bearer })).statusCode).toBe(200);
    stack.clock.advance(86_400_000);
    expect((await stack.app.inject({ url: '/api/me', headers: bearer })).statusCode).toBe(401);
  });

  it('refuses a bad request in plain words', async () => {
    const bad = await stack.app.inject({
      method: 'POST',
      url: '/api/tokens',
      headers: as('admin'),
      payload: { name: 'x', role: 'owner', expires_in_days: 1 },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ ok: false, error: 'role must be one of viewer, editor, admin' });
    const never = await stack.app.inject({
      method: 'POST',
      url: '/api/tokens',
      headers: as('admin'),
      payload: { name: 'x', role: 'viewer' },
    });
    expect(never.statusCode).toBe(400);
  });

  it.each([
    ['a bidi override', 'deploy \u202Egpj.exe'],
    ['a bidi isolate', 'ci \u2066admin\u2069'],
    ['a line break', 'ci\nsign-in failed'],
    ['a NUL', 'ci\u0000bot'],
    ['an escape', 'ci \u001b[31mred'],
  ])('refuses a name with %s, naming the field, and stores nothing', async (_what, name) => {
    const before = await stack.app.inject({ url: '/api/tokens', headers: as('admin') });
    const bad = await stack.app.inject({
      method: 'POST',
      url: '/api/tokens',
      headers: as('admin'),
      payload: { name, role: 'viewer', expires_in_days: 1 },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      ok: false,
      error: expect.stringMatching(
        /^name must not contain control (characters or bidirectional-text controls$|or bidirectional characters \(U+)/,
      ),
    });
    const after = await stack.app.inject({ url: '/api/tokens', headers: as('admin') });
    expect(after.json().tokens).toHaveLength(before.json().tokens.length);
  });
});

describe('roles behind the SSO proxy', () => {
  it('follow the groups header on every request: a removed group counts at once', async () => {
    const write = (groups: string) =>
      stack.app.inject({
        method: 'POST',
        url: '/api/watchlists',
        headers: { [USER]: 'changing-person', [GROUPS]: groups },
        payload: { name: 'Sahel', countries: ['MLI'] },
      });
    expect((await write('staff, risk-editors')).statusCode).toBe(201);
    expect((await write('staff')).statusCode).toBe(403);
  });
});
