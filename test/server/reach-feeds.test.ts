import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { COUNTRY_SPREADSHEET_COLUMNS } from '../helpers/spreadsheet-columns.js';
import type { Role } from '../../src/shared/roles.js';
import { startHistoryStack, type HistoryStack } from '../helpers/history-stack.js';
import { openAppStore } from '../helpers/history-store.js';
import { as, proxyRolesAccess } from '../helpers/roles-proxy.js';

/*
 * Feeds for spreadsheets and BI tools (issue 34): feed tokens made by an admin for named feeds,
 * read in the URL by tools that cannot send a header, refused anywhere else; the CSV read with a
 * CSV parser, its times read as dates; served from the store alone, limited per token.
 */
/** The store budget of one client (and of one feed token) a minute, small so a flood shows. */
const PER_MINUTE = 6;

let store: HistoryStore;
let stack: HistoryStack;
beforeAll(async () => {
  store = await openAppStore();
  stack = await startHistoryStack(store, {
    start: Date.UTC(2026, 2, 1, 8),
    config: {
      access: proxyRolesAccess,
      history: {
        databaseUrl: null,
        retentionDays: null,
        storeQuestions: { perMinute: PER_MINUTE },
      },
    },
  });
  await stack.nextBatch();
}, 60_000);
afterAll(async () => {
  await stack?.close();
  await store?.close();
});

async function makeToken(feeds: string[], role: Role = 'admin') {
  return stack.app.inject({
    method: 'POST',
    url: '/api/feed-tokens',
    headers: as(role),
    payload: { name: `sheet ${feeds.join('+')}`, feeds, expires_in_days: 30 },
  });
}

/** A tool with only a URL: no sign-in, no header (a different address than the proxy's). */
const fetchFeed = (url: string, remoteAddress = '10.9.9.9') =>
  stack.app.inject({ method: 'GET', url, remoteAddress });

/** The time cells as a spreadsheet reads them: `YYYY-MM-DD HH:MM:SS`, UTC (the header says). */
function readUtc(cell: string): Date {
  expect(cell).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  return new Date(`${cell.replace(' ', 'T')}Z`);
}

describe('feed tokens', () => {
  it('are made by admins only, shown once, listed with their last use', async () => {
    expect((await makeToken(['countries'], 'editor')).statusCode).toBe(403);
    const made = await makeToken(['countries']);
    expect(made.statusCode, made.body).toBe(201);
    const { secret, token } = made.json() as { secret: string; token: { id: string } };
    expect(secret).toMatch(/^grf_[A-Za-z0-9_-]{43}$/);
    const listed = await stack.app.inject({ url: '/api/feed-tokens', headers: as('admin') });
    expect(listed.body).not.toContain(secret);
    const mine = () =>
      stack.app
        .inject({ url: '/api/feed-tokens', headers: as('admin') })
        .then((r) => (r.json().tokens as { id: string }[]).find((t) => t.id === token.id));
    expect(await mine()).toMatchObject({ feeds: ['countries'], last_used_at: null, uses: 0 });
    expect((await fetchFeed(`/api/feeds/countries.json?token=${secret}`)).statusCode).toBe(200);
    expect(await mine()).toMatchObject({ last_used_at: expect.any(String), uses: 1 });
  });

  it('refuses bad bodies with the field named', async () => {
    const post = (payload: object) =>
      stack.app.inject({ method: 'POST', url: '/api/feed-tokens', headers: as('admin'), payload });
    const bad = await post({ name: 'x', feeds: ['everything'], expires_in_days: 3 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      ok: false,
      error: expect.stringContaining('feeds may name only'),
    });
    expect((await post({ name: 'x', feeds: ['alerts'], expires_in_days: 999 })).json().error).toBe(
      'expires_in_days may be at most 365',
    );
  });
});

describe('the countries feed', () => {
  it('reads with a CSV parser, its times as dates, and spends no upstream request', async () => {
    const { secret } = (await makeToken(['countries'])).json() as { secret: string };
    const before = stack.demo.requestCount();
    const csv = await fetchFeed(`/api/feeds/countries.csv?token=${secret}`);
    const json = await fetchFeed(`/api/feeds/countries.json?token=${secret}`, '10.9.9.8');
    expect(stack.demo.requestCount() - before).toBe(0);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const rows = parse(csv.body, { bom: true, columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0] ?? {})).toEqual([...COUNTRY_SPREADSHEET_COLUMNS]);
    const asOf = (json.json() as { as_of: string }).as_of;
    expect(rows.length).toBe((json.json() as { countries: unknown[] }).countries.length);
    for (const row of rows) {
      const when = readUtc(row['Data generated (UTC)'] ?? '');
      expect(when).toBeInstanceOf(Date);
      expect(when.toISOString()).toBe(new Date(asOf).toISOString());
    }
  });
});

describe('a feed token is good for its feeds only', () => {
  it('is refused on another feed, another route and any write, with why', async () => {
    const { secret } = (await makeToken(['countries'])).json() as { secret: string };
    const other = await fetchFeed(`/api/feeds/alerts.csv?token=${secret}`);
    expect(other.statusCode).toBe(403);
    expect(other.json().error).toBe('This feed token reads only countries, not alerts');
    const route = await fetchFeed(`/api/countries?token=${secret}`);
    expect(route.statusCode).toBe(403);
    expect(route.json().error).toMatch(/^A feed token reads only its feeds/);
    const write = await stack.app.inject({
      method: 'POST',
      url: '/api/watchlists',
      remoteAddress: '10.9.9.9',
      headers: { authorization: `Bearer ${secret}` },
      payload: { name: 'x', countries: ['MLI'] },
    });
    expect(write.statusCode).toBe(403);
    expect(write.json().error).toBe('A feed token only reads: it may not change anything');
  });

  it('is refused once revoked, and without a token the feed asks for one', async () => {
    const made = (await makeToken(['countries'])).json() as {
      secret: string;
      token: { id: string };
    };
    const revoked = await stack.app.inject({
      method: 'DELETE',
      url: `/api/feed-tokens/${made.token.id}`,
      headers: as('admin'),
    });
    expect(revoked.statusCode).toBe(200);
    const after = await fetchFeed(`/api/feeds/countries.csv?token=${made.secret}`);
    expect(after.statusCode).toBe(403);
    expect(after.json().error).toMatch(/^This feed token was revoked on /);
    expect((await fetchFeed('/api/feeds/countries.csv')).statusCode).toBe(401);
  });

  it('names a missing parameter in a 400', async () => {
    const { secret } = (await makeToken(['country-history'])).json() as { secret: string };
    const missing = await fetchFeed(`/api/feeds/country-history.csv?token=${secret}`);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe('iso is required, such as iso=UKR');
    const history = await fetchFeed(
      `/api/feeds/country-history.csv?token=${secret}&iso=mli`,
      '10.9.9.7',
    );
    expect(history.statusCode, history.body).toBe(200);
    const rows = parse(history.body, { bom: true, columns: true }) as Record<string, string>[];
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows)
      expect(readUtc(row['Data generated (UTC)'] ?? '').getTime()).not.toBeNaN();
  });
});

describe('a flood from one token', () => {
  it('is limited like any client: 429 with Retry-After past its budget', async () => {
    const { secret } = (await makeToken(['countries'])).json() as { secret: string };
    const statuses: number[] = [];
    let retryAfter: string | undefined;
    for (let i = 0; i < PER_MINUTE + 3; i++) {
      // Each read from a new address: the limit follows the token, not where it is used from.
      const answer = await fetchFeed(`/api/feeds/countries.csv?token=${secret}`, `10.8.0.${i + 1}`);
      statuses.push(answer.statusCode);
      retryAfter ??= answer.headers['retry-after'] as string | undefined;
    }
    expect(statuses.slice(0, PER_MINUTE)).toEqual(Array(PER_MINUTE).fill(200));
    expect(statuses.slice(PER_MINUTE)).toEqual([429, 429, 429]);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });
});
