import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PERSONAL_WATCHLISTS_MAX,
  TEAM_WATCHLISTS_MAX,
  WATCHLIST_COUNTRIES_MAX,
  WATCHLIST_RULES_MAX,
} from '../../src/shared/alerts-api.js';
import pg from 'pg';
import { rowsOf } from '../../src/server/store/connection.js';
import { Secret } from '../../src/server/secret.js';
import { HistoryStore } from '../../src/server/store/history-store.js';
import { insertWatchlist, ownerLockName } from '../../src/server/store/watchlists.js';
import { freshPostgresDatabase, openAppStore } from '../helpers/history-store.js';
import { startHistoryStack, type HistoryStack } from '../helpers/history-stack.js';
import { ISO_CODES } from '../helpers/synthetic-batches.js';
import { proxyUserAccess } from '../helpers/roles-proxy.js';

/*
 * What users may create is bounded (issue 18): lists per person and per team, countries and
 * rules per list. At the limit the next one is refused with a 4xx that names the limit.
 */
const start = Date.UTC(2026, 2, 1, 8, 0, 0);
const USER_HEADER = 'x-forwarded-user';

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

async function create(body: object, user: string) {
  return stack.app.inject({
    method: 'POST',
    url: '/api/watchlists',
    headers: { [USER_HEADER]: user },
    payload: { name: 'List', countries: ['MLI'], ...body },
  });
}

/** `n` lists of `owner` (null: the team) written straight to the store. */
async function fill(owner: string | null, n: number): Promise<void> {
  await store.db.execute(sql`
    insert into watchlists (name, countries, rules, owner)
    select 'Filler ' || g, '["MLI"]'::jsonb, '[]'::jsonb, ${owner}
    from generate_series(1, ${n}) as g`);
}

const activeRules = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ kind: 'active_change', min_abs_delta: i + 1 }));

describe('watchlist limits', () => {
  it('one person may have 50 personal lists; the 51st is refused in words, others unaffected', async () => {
    expect(PERSONAL_WATCHLISTS_MAX).toBe(50);
    await fill('ana', PERSONAL_WATCHLISTS_MAX - 1);
    expect((await create({ scope: 'user' }, 'ana')).statusCode).toBe(201);
    const refused = await create({ scope: 'user' }, 'ana');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      ok: false,
      error:
        'You already have 50 personal watchlists, the most one person may have: delete one before creating another',
    });
    expect((await create({ scope: 'user' }, 'ben')).statusCode).toBe(201);
  });

  it('the team may have 500 lists; the 501st is refused in words', async () => {
    expect(TEAM_WATCHLISTS_MAX).toBe(500);
    const [row] = rowsOf(
      await store.db.execute(sql`select count(*) as n from watchlists where owner is null`),
    );
    await fill(null, TEAM_WATCHLISTS_MAX - 1 - Number(row?.n ?? 0));
    expect((await create({}, 'ana')).statusCode).toBe(201);
    const refused = await create({}, 'ben');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      ok: false,
      error:
        'The team already has 500 watchlists, the most a team may have: delete one before creating another',
    });
    // A personal list is counted apart.
    expect((await create({ scope: 'user' }, 'cid')).statusCode).toBe(201);
  });

  it('a list may hold 100 countries and 20 rules; one more is refused in words', async () => {
    expect([WATCHLIST_COUNTRIES_MAX, WATCHLIST_RULES_MAX]).toEqual([100, 20]);
    const countries = ISO_CODES.slice(0, 101);
    const full = await create(
      { scope: 'user', countries: countries.slice(0, 100), rules: activeRules(20) },
      'dora',
    );
    expect(full.statusCode).toBe(201);
    const tooManyCountries = await create({ scope: 'user', countries }, 'dora');
    expect(tooManyCountries.statusCode).toBe(400);
    expect(tooManyCountries.json()).toEqual({
      ok: false,
      error: 'countries: a watchlist may list at most 100 countries',
    });
    const tooManyRules = await create({ scope: 'user', rules: activeRules(21) }, 'dora');
    expect(tooManyRules.statusCode).toBe(400);
    expect(tooManyRules.json()).toEqual({
      ok: false,
      error: 'rules: a watchlist may have at most 20 rules',
    });
  });
});

describe('the limit under concurrent creation (PostgreSQL)', () => {
  it('a creation waits for one in progress for the same owner, then sees its list', async () => {
    const url = await freshPostgresDatabase();
    const pgStore = await HistoryStore.open({
      dataDir: null,
      databaseUrl: new Secret(url),
      retentionDays: null,
    });
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      // Another creation for eve holds the owner's lock and is about to take the last place.
      await other.query('select pg_advisory_lock(hashtext($1))', [ownerLockName('eve')]);
      let settled = false;
      const racing = insertWatchlist(pgStore.db, listOf('eve'), 1).finally(() => {
        settled = true;
      });
      for (;;) {
        const { rows } = await other.query<{ n: string }>(
          "select count(*) as n from pg_locks where locktype = 'advisory' and not granted",
        );
        if (Number(rows[0]?.n) === 1) break;
        expect(settled, 'the creation went ahead without waiting for the other').toBe(false);
      }
      await other.query(
        "insert into watchlists (name, countries, rules, owner) values ('First', '[]', '[]', 'eve')",
      );
      await other.query('select pg_advisory_unlock(hashtext($1))', [ownerLockName('eve')]);
      expect(await racing).toBeNull();
      // Another owner never waits for eve.
      expect(await insertWatchlist(pgStore.db, listOf('fay'), 1)).not.toBeNull();
    } finally {
      await other.end();
      await pgStore.close();
    }
  }, 60_000);
});

function listOf(owner: string) {
  return {
    name: 'Race',
    countries: ['MLI'],
    rules: [],
    owner,
    webhookUrl: null,
    webhookFormat: 'standard' as const,
    webhookSecret: null,
    email: null,
  };
}
