import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isWrite } from '../../src/server/plugins/roles.js';
import { Secret } from '../../src/server/secret.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import type { Role } from '../../src/shared/roles.js';
import { startHistoryStack, type HistoryStack } from '../helpers/history-stack.js';
import { openAppStore } from '../helpers/history-store.js';

/*
 * The audit log (issue 21), through the whole app behind an SSO proxy whose groups header names
 * each person's role (as roles.test.ts): every registered write route is recorded, with who,
 * from where, and what changed, never a secret; only admins read it.
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
const DAY_MS = 86_400_000;

interface Entry {
  id: string;
  at: string;
  who: { name: string; via: string; role: string | null };
  address: string | null;
  action: string;
  object: string | null;
  status: number;
  detail: string | null;
  before: unknown;
  after: unknown;
}

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
        trustedProxyAddresses: ['127.0.0.1'],
        roles: { editors: ['risk-editors'], admins: ['risk-admins'] },
        allowAnonymous: false,
        auditRetentionDays: 30,
      },
    },
  });
}, 60_000);
afterAll(async () => {
  await stack?.close();
  await store?.close();
});

async function audit(query = ''): Promise<{ entries: Entry[]; next_cursor: string | null }> {
  const answer = await stack.app.inject({ url: `/api/audit${query}`, headers: as('admin') });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json();
}
const newest = async (): Promise<Entry | undefined> => (await audit('?limit=1')).entries[0];

describe('every write route', () => {
  it('is recorded, whatever it answers, with who asked and the answer', async () => {
    const writes = stack.app
      .registeredRoutes()
      .filter((route) => isWrite(route.method) && !route.signInFree)
      // A backtest is a read-only trial sent as a POST: not a change (below).
      .filter((route) => route.url !== '/api/watchlists/backtest');
    expect(writes.length).toBeGreaterThan(10);
    for (const route of writes) {
      const before = await newest();
      const answer = await stack.app.inject({
        method: route.method as 'POST',
        url: route.url.replace(/:(\w+)/g, '1'),
        headers: as('admin', 'walker'),
        payload: {},
      });
      const entry = await newest();
      const label = `${route.method} ${route.url} (${answer.statusCode})`;
      expect(entry?.id, `${label} was not recorded`).not.toBe(before?.id);
      expect(entry).toMatchObject({ who: { name: 'walker', via: 'proxy', role: 'admin' } });
      expect(entry?.status, label).toBe(answer.statusCode);
      expect(entry?.address).toBe('127.0.0.1');
    }
  });

  it('records a refusal by role with the words the person saw', async () => {
    const refused = await stack.app.inject({
      method: 'POST',
      url: '/api/tokens',
      headers: as('viewer', 'vic'),
      payload: { name: 'x', role: 'admin', expires_in_days: 1 },
    });
    expect(refused.statusCode).toBe(403);
    expect(await newest()).toMatchObject({
      who: { name: 'vic', role: 'viewer' },
      action: 'POST /api/tokens',
      status: 403,
      detail: refused.json().error,
    });
  });
});

describe('what changed', () => {
  it('a watchlist renamed and deleted: before and after, and the webhook secret never', async () => {
    const made = await stack.app.inject({
      method: 'POST',
      url: '/api/watchlists',
      headers: as('editor', 'Eddie'),
      payload: {
        name: 'Sahel',
        countries: ['MLI', 'NER'],
        webhook_url: 'https://hooks.example.com/x',
      },
    });
    expect(made.statusCode, made.body).toBe(201);
    const secret = made.json().webhook_secret as string;
    expect(secret).toMatch(/^whsec_/);
    const id = made.json().watchlist.id as string;
    expect(await newest()).toMatchObject({
      who: { name: 'Eddie' },
      object: '/api/watchlists',
      after: { watchlist: { id, name: 'Sahel' } },
      before: null,
    });

    const renamed = await stack.app.inject({
      method: 'PUT',
      url: `/api/watchlists/${id}`,
      headers: { ...as('editor', 'Eddie'), 'if-match': made.headers.etag as string },
      payload: {
        name: 'Sahel belt',
        countries: ['MLI', 'NER', 'BFA'],
        webhook_url: 'https://hooks.example.com/x',
      },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await newest()).toMatchObject({
      action: 'PUT /api/watchlists/:id',
      object: `/api/watchlists/${id}`,
      before: { watchlist: { name: 'Sahel', countries: ['MLI', 'NER'] } },
      after: { watchlist: { name: 'Sahel belt', countries: ['MLI', 'NER', 'BFA'] } },
    });

    const removed = await stack.app.inject({
      method: 'DELETE',
      url: `/api/watchlists/${id}`,
      headers: { ...as('editor', 'Eddie'), 'if-match': renamed.headers.etag as string },
    });
    expect(removed.statusCode).toBe(200);
    expect(await newest()).toMatchObject({
      action: 'DELETE /api/watchlists/:id',
      before: { watchlist: { name: 'Sahel belt' } },
      after: null,
    });

    const everything = await stack.app.inject({
      url: '/api/spreadsheet/audit.csv',
      headers: as('admin'),
    });
    const log = JSON.stringify((await audit('?limit=500')).entries) + everything.body;
    expect(log).toContain('Sahel belt');
    expect(log).not.toContain(secret);
    expect(log).not.toContain(secret.slice('whsec_'.length));
  });

  it('API tokens made and revoked are named, their secret never kept', async () => {
    const made = await stack.app.inject({
      method: 'POST',
      url: '/api/tokens',
      headers: as('admin', 'Ada'),
      payload: { name: 'nightly', role: 'viewer', expires_in_days: 5 },
    });
    const { secret, token } = made.json() as { secret: string; token: { id: string } };
    expect(await newest()).toMatchObject({
      action: 'API token created',
      object: `API token ${token.id} “nightly”`,
      after: { name: 'nightly', role: 'viewer' },
    });
    await stack.app.inject({
      method: 'DELETE',
      url: `/api/tokens/${token.id}`,
      headers: as('admin', 'Ada'),
    });
    expect(await newest()).toMatchObject({
      who: { name: 'Ada' },
      action: 'API token revoked',
      status: 200,
      before: { id: token.id, name: 'nightly' },
    });
    const log = JSON.stringify((await audit('?limit=500')).entries);
    expect(log).not.toContain(secret.slice(4));
  });

  it('sign-ins with the shared token, a failed one and a sign-out, with the address', async () => {
    const form = {
      'content-type': 'application/x-www-form-urlencoded',
      origin: 'http://localhost',
    };
    const wrong = await stack.app.inject({
      method: 'POST',
      url: '/login',
      headers: form,
      payload: 'token=nope',
      remoteAddress: '10.1.2.3',
    });
    expect(wrong.statusCode).toBe(401);
    expect(await newest()).toMatchObject({
      who: { name: 'Unknown (not signed in)', via: 'none' },
      action: 'sign-in failed',
      address: '10.1.2.3',
      status: 401,
    });
    const right = await stack.app.inject({
      method: 'POST',
      url: '/login',
      headers: form,
      payload: `token=${encodeURIComponent(TOKEN)}`,
      remoteAddress: '10.1.2.3',
    });
    expect(right.statusCode).toBe(303);
    expect(await newest()).toMatchObject({
      who: { name: 'Dashboard token', via: 'dashboard-token' },
      action: 'sign-in',
    });
    const session = right.cookies.find((c) => c.name === 'grd_session')?.value as string;

    // An admin ends that session: the entry names whose it was, never its handle.
    const listed = await stack.app.inject({ url: '/api/sessions', headers: as('admin') });
    const target = (listed.json().sessions as { id: string; address: string }[])[0];
    expect(target?.address).toBe('10.1.2.3');
    const ended = await stack.app.inject({
      method: 'DELETE',
      url: `/api/sessions/${target?.id}`,
      headers: as('admin', 'Ada'),
    });
    expect(ended.statusCode).toBe(200);
    const entry = await newest();
    expect(entry).toMatchObject({
      action: 'session revoked',
      object: 'session of Dashboard token',
      before: { name: 'Dashboard token', address: '10.1.2.3' },
    });
    expect(JSON.stringify(entry)).not.toContain(target?.id);
    expect(JSON.stringify(entry)).not.toContain(session);
    const out = await stack.app.inject({
      method: 'POST',
      url: '/logout',
      headers: form,
      cookies: { grd_session: session },
    });
    expect(out.statusCode).toBe(303);
  });
});

describe('in plain words, changes only (issue 33, point 13)', () => {
  const SITES = [
    { ref: 'A1', name: 'Bamako office', kind: 'office', lat: 12.64, lng: -8.0, people: 10 },
    { ref: 'A2', name: 'Niamey depot', kind: 'warehouse', lat: 13.51, lng: 2.11, people: 4 },
  ];
  const mineOnly = async (who: string) => (await audit(`?who=${who}`)).entries;

  it('a dry-run import and a backtest are not logged; a real import is, as "imported N sites"', async () => {
    const dry = await stack.app.inject({
      method: 'POST',
      url: '/api/sites/import?dry_run=1',
      headers: as('editor', 'trial-alice'),
      payload: SITES,
    });
    expect(dry.statusCode, dry.body).toBe(200);
    const tried = await stack.app.inject({
      method: 'POST',
      url: '/api/watchlists/backtest',
      headers: as('editor', 'trial-alice'),
      payload: { countries: ['MLI'], rules: [{ kind: 'score_above', threshold: 50 }] },
    });
    expect(tried.statusCode).toBeLessThan(500);
    expect(await mineOnly('trial-alice')).toEqual([]);

    const real = await stack.app.inject({
      method: 'POST',
      url: '/api/sites/import',
      headers: as('editor', 'trial-alice'),
      payload: SITES,
    });
    expect(real.statusCode, real.body).toBe(200);
    const entries = await mineOnly('trial-alice');
    expect(entries.map((e) => e.action)).toEqual(['POST /api/sites/import']);
    const file = await stack.app.inject({
      url: '/api/spreadsheet/audit.csv?who=trial-alice',
      headers: as('admin'),
    });
    expect(file.body.split('\r\n')[1]).toContain(',trial-alice imported 2 sites,');
  });

  it('until a day alone takes in the whole of that day (the page sends its date field so)', async () => {
    await stack.app.inject({
      method: 'POST',
      url: '/api/watchlists',
      headers: as('editor', 'day-person'),
      payload: { name: 'day', countries: ['MLI'] },
    });
    const day = new Date(stack.clock.now()).toISOString().slice(0, 10);
    expect(await mineOnly(`day-person&until=${day}`)).toHaveLength(1);
    expect(await mineOnly(`day-person&since=${day}&until=${day}`)).toHaveLength(1);
  });
});

describe('reading the log', () => {
  it('filters by who, action, object and time, pages by cursor, and only for admins', async () => {
    const t0 = stack.clock.now();
    for (const name of ['Alpha', 'Beta', 'Gamma']) {
      stack.clock.advance(60_000);
      await stack.app.inject({
        method: 'POST',
        url: '/api/watchlists',
        headers: as('editor', `filter-${name}`),
        payload: { name, countries: ['MLI'] },
      });
    }
    const mine = await audit('?who=filter-');
    expect(mine.entries.map((e) => e.who.name)).toEqual([
      'filter-Gamma',
      'filter-Beta',
      'filter-Alpha',
    ]);
    const since = new Date(t0 + 90_000).toISOString();
    const later = await audit(`?who=FILTER&since=${since}&action=POST /api/watchlists`);
    expect(later.entries.map((e) => e.who.name)).toEqual(['filter-Gamma', 'filter-Beta']);
    const until = new Date(t0 + 90_000).toISOString();
    expect((await audit(`?who=filter&until=${until}`)).entries).toHaveLength(1);
    expect((await audit('?object=/api/watch*&who=filter')).entries).toHaveLength(3);
    expect((await audit('?object=/api/watch&who=filter')).entries).toHaveLength(0);

    const first = await audit('?who=filter&limit=2');
    expect(first.entries).toHaveLength(2);
    expect(first.next_cursor).not.toBeNull();
    const second = await audit(`?who=filter&limit=2&cursor=${first.next_cursor}`);
    expect(second.entries.map((e) => e.who.name)).toEqual(['filter-Alpha']);
    expect(second.next_cursor).toBeNull();

    for (const role of ['viewer', 'editor'] as const) {
      const refused = await stack.app.inject({ url: '/api/audit', headers: as(role) });
      expect(refused.statusCode).toBe(403);
    }
    const bad = await stack.app.inject({ url: '/api/audit?since=yesterday', headers: as('admin') });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/^since must be an ISO 8601 time/);
  });

  it('no route changes or deletes an entry', () => {
    const onAudit = stack.app.registeredRoutes().filter((r) => r.url.includes('audit'));
    expect(onAudit.length).toBeGreaterThan(0);
    expect(onAudit.filter((r) => isWrite(r.method))).toEqual([]);
  });

  it('as a spreadsheet CSV with the same filters and the formula guard', async () => {
    await stack.app.inject({
      method: 'POST',
      url: '/api/watchlists',
      headers: as('editor', '=HYPERLINK("x")'),
      payload: { name: 'csv', countries: ['MLI'] },
    });
    const file = await stack.app.inject({
      url: '/api/spreadsheet/audit.csv?who=HYPERLINK',
      headers: as('admin'),
    });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(file.headers['content-disposition']).toMatch(
      /^attachment; filename="audit-log-\d{4}-\d\d-\d\d-\d{4}\.csv"$/,
    );
    const lines = file.body.split('\r\n');
    expect(lines[0]?.startsWith('\ufeffTime (UTC),What happened,Who,E-mail')).toBe(true);
    // The sentence, who, then its subject: each starts with the apostrophe that keeps it from
    // running.
    expect(lines[1]).toMatch(
      /^[\d-]+ [\d:]+,"'=HYPERLINK\(""x""\) created a watchlist","'=HYPERLINK\(""x""\)",,"'=HYPERLINK\(""x""\)",/,
    );
    expect(lines[1]).toContain('Sign-in proxy');
    expect(lines.filter((l) => l !== '')).toHaveLength(2);
    expect(
      (await stack.app.inject({ url: '/api/spreadsheet/audit.csv', headers: as('editor') }))
        .statusCode,
    ).toBe(403);
  });

  it('keeps entries AUDIT_RETENTION_DAYS: older ones go at the next write after an hour', async () => {
    const old = await audit('?limit=500');
    expect(old.entries.length).toBeGreaterThan(5);
    stack.clock.advance(31 * DAY_MS);
    await stack.app.inject({
      method: 'POST',
      url: '/api/watchlists',
      headers: as('editor', 'late'),
      payload: { name: 'late', countries: ['MLI'] },
    });
    const left = await audit('?limit=500');
    expect(left.entries.map((e) => e.who.name)).toEqual(['late']);
  });
});
