import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import type { Role } from '../../src/shared/roles.js';
import { startHistoryStack, type HistoryStack } from '../helpers/history-stack.js';
import { openAppStore } from '../helpers/history-store.js';
import { as, proxyRolesAccess } from '../helpers/roles-proxy.js';

/*
 * Embeds (issue 34): an admin makes one for a view and a site origin; its page is framed by that
 * origin only, refused (403, naming why) from another site's page, for another view, expired or
 * revoked; every load counted; drawn from the store alone.
 */

/** One viewer's store budget a minute, small so a flood shows (each load is one unit). */
const PER_MINUTE = 30;
let store: HistoryStore;
let stack: HistoryStack;
beforeAll(async () => {
  store = await openAppStore();
  stack = await startHistoryStack(store, {
    start: Date.UTC(2026, 2, 1, 8),
    config: {
      access: proxyRolesAccess,
      history: { storeQuestions: { perMinute: PER_MINUTE } },
    },
  });
  await stack.nextBatch();
}, 60_000);
afterAll(async () => {
  await stack?.close();
  await store?.close();
});

const SITE = 'https://intranet.example.com';

async function makeEmbed(payload: object, role: Role = 'admin') {
  return stack.app.inject({ method: 'POST', url: '/api/embeds', headers: as(role), payload });
}

/** The page as a browser inside another site's iframe asks for it: no sign-in, a Referer. */
const load = (path: string, referer: string | null = `${SITE}/news`) =>
  stack.app.inject({
    method: 'GET',
    url: path,
    remoteAddress: '10.9.9.9',
    headers: referer === null ? {} : { referer },
  });

const pathOf = (url: string) => new URL(url).pathname;

describe('making an embed', () => {
  it('is for admins, and bad bodies are refused naming the field', async () => {
    const base = { name: 'Intranet map', view: 'map', origin: SITE, expires_in_days: 30 };
    expect((await makeEmbed(base, 'editor')).statusCode).toBe(403);
    const path = await makeEmbed({ ...base, origin: `${SITE}/news` });
    expect(path.statusCode).toBe(400);
    expect(path.json().error).toMatch(/^origin must be a site's origin/);
    expect((await makeEmbed({ ...base, view: 'everything' })).json().error).toBe(
      'view must be one of map, index, country, watchlist',
    );
    expect((await makeEmbed({ ...base, view: 'country' })).json().error).toMatch(
      /^subject must be/,
    );
  });
});

describe('an embed page', () => {
  it('is framed by its origin only, carries its batch time and a link back, counts loads', async () => {
    const made = await makeEmbed({ name: 'Map', view: 'map', origin: SITE, expires_in_days: 30 });
    expect(made.statusCode, made.body).toBe(201);
    const { url, embed } = made.json() as { url: string; embed: { id: string } };
    expect(url).toMatch(/\/embed\/gre_[A-Za-z0-9_-]{43}$/);
    const before = stack.demo.requestCount();
    const page = await load(pathOf(url));
    expect(stack.demo.requestCount() - before).toBe(0);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.headers['content-security-policy']).toContain(`frame-ancestors ${SITE}`);
    expect(page.headers['x-frame-options']).toBeUndefined();
    expect(page.body).toContain('<svg');
    expect(page.body).toMatch(/Data generated \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    expect(page.body).toContain('Open in the Global Risk Dashboard');
    // Other answers keep refusing every frame.
    expect((await load('/api/status')).headers['content-security-policy']).toContain(
      "frame-ancestors 'none'",
    );
    await load(pathOf(url));
    const listed = await stack.app.inject({ url: '/api/embeds', headers: as('admin') });
    expect(listed.body).not.toContain(pathOf(url).slice(7));
    const mine = (listed.json().embeds as { id: string; uses: number }[]).find(
      (e) => e.id === embed.id,
    );
    expect(mine).toMatchObject({ view: 'map', origin: SITE, uses: 2 });
  });

  it('is refused from another site, for another view, and once revoked: 403 naming why', async () => {
    const made = await makeEmbed({
      name: 'Ukraine card',
      view: 'country',
      subject: 'ukr',
      origin: SITE,
      expires_in_days: 1,
    });
    const { url, embed } = made.json() as { url: string; embed: { id: string } };
    const ok = await load(pathOf(url));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.body).toContain('Ukraine');
    const elsewhere = await load(pathOf(url), 'https://evil.example/page');
    expect(elsewhere.statusCode).toBe(403);
    expect(elsewhere.json().error).toBe(
      `This embed may be shown only on ${SITE}, not on https://evil.example`,
    );
    const otherView = await load(`${pathOf(url)}?view=map`);
    expect(otherView.statusCode).toBe(403);
    expect(otherView.json().error).toBe('This embed shows the country view, not map');
    const revoked = await stack.app.inject({
      method: 'DELETE',
      url: `/api/embeds/${embed.id}`,
      headers: as('admin'),
    });
    expect(revoked.statusCode).toBe(200);
    const after = await load(pathOf(url));
    expect(after.statusCode).toBe(403);
    expect(after.json().error).toMatch(/^This embed was revoked on /);
    expect((await load(`${pathOf(url)}/batch`)).statusCode).toBe(403);
  });

  it('is refused once expired', async () => {
    const made = await makeEmbed({
      name: 'Index',
      view: 'index',
      origin: SITE,
      expires_in_days: 1,
    });
    const { url } = made.json() as { url: string };
    expect((await load(pathOf(url))).statusCode).toBe(200);
    stack.clock.set(stack.clock.t + 2 * 86_400_000);
    const expired = await load(pathOf(url));
    expect(expired.statusCode).toBe(403);
    expect(expired.json().error).toMatch(/^This embed was expired on /);
  });

  it('an embed token is good for its page only', async () => {
    const made = await makeEmbed({ name: 'Map 2', view: 'map', origin: SITE, expires_in_days: 5 });
    const token = pathOf((made.json() as { url: string }).url).slice('/embed/'.length);
    const api = await load(`/api/countries?token=${token}`);
    expect(api.statusCode).toBe(403);
    expect(api.json().error).toMatch(/^An embed token shows only its embedded view/);
  });
});

describe('a flood of loads from one address', () => {
  it('is refused (429) past that viewer’s budget before a use is counted; others still load', async () => {
    const made = await makeEmbed({ name: 'Wall', view: 'index', origin: SITE, expires_in_days: 9 });
    const { url, embed } = made.json() as { url: string; embed: { id: string } };
    const from = (remoteAddress: string) =>
      stack.app.inject({ url: pathOf(url), remoteAddress, headers: { referer: `${SITE}/wall` } });
    const statuses: number[] = [];
    for (let i = 0; i < PER_MINUTE + 3; i++) statuses.push((await from('10.7.7.7')).statusCode);
    expect(statuses.slice(0, PER_MINUTE)).toEqual(Array<number>(PER_MINUTE).fill(200));
    const refused = await from('10.7.7.7');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(statuses.slice(PER_MINUTE)).toEqual([429, 429, 429]);
    // Another viewer of the same page is not held back by the first one's flood.
    expect((await from('10.6.6.6')).statusCode).toBe(200);
    const listed = await stack.app.inject({ url: '/api/embeds', headers: as('admin') });
    const mine = (listed.json().embeds as { id: string; uses: number }[]).find(
      (e) => e.id === embed.id,
    );
    expect(mine?.uses).toBe(PER_MINUTE + 1);
  });
});
