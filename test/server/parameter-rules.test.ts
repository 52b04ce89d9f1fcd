import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { openAppStore } from '../helpers/history-store.js';
import { startHistoryStack, type HistoryStack } from '../helpers/history-stack.js';
import { proxyUserAccess } from '../helpers/roles-proxy.js';

/*
 * Issue 30, point 6: one text rule and one date rule for every parameter, so no route can miss
 * them. Every operation the OpenAPI description lists is asked with a NUL, a bidi override and
 * year 0 in each of its string parameters (query, path) and in each string property of its JSON
 * body: each answer is a 4xx in the house shape naming the parameter, never a 500. Before the
 * rules, a NUL in `webhook_url` and year 0 in `as_of`, `from` and the explain route's range
 * reached PostgreSQL, which refused them (500).
 */
const USER_HEADER = 'x-forwarded-user';
const signedIn = { [USER_HEADER]: 'ana' };

interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  schema?: { type?: string | string[] };
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: {
    content?: Record<string, { schema?: { properties?: Record<string, { type?: unknown }> } }>;
  };
}

let store: HistoryStore;
let stack: HistoryStack;
let paths: Record<string, Record<string, Operation>>;
beforeAll(async () => {
  store = await openAppStore();
  stack = await startHistoryStack(store, {
    start: Date.UTC(2026, 2, 1, 8),
    config: {
      access: proxyUserAccess,
      data: { clientMissesPerMinute: 100_000 },
      history: {
        storeQuestions: { queriesPerMinute: 100_000, queriesInFlight: 2, queryQueue: 1000 },
      },
    },
  });
  await stack.nextBatch();
  paths = (await stack.app.inject({ url: '/api/openapi.json', headers: signedIn })).json().paths;
}, 60_000);
afterAll(async () => {
  await stack?.close();
  await store?.close();
});

const NUL = 'a\u0000b';
const BIDI = 'abc\u202Egpj.exe';
const YEAR_ZERO = '0000-01-01T00:00:00Z';

/** A value each path parameter takes, so the one under test is the only wrong one. */
const GOOD_PATH: Record<string, string> = { iso: 'UKR', id: '1', resource: 'hotspots' };
/** Parameters that name a time: year 0 must be refused there, not only survived. */
const TIMES = new Set(['as_of', 'from', 'to', 'since', 'before', 'until']);

interface Case {
  label: string;
  method: string;
  url: string;
  body?: Record<string, string>;
  field: string;
  mustRefuse: boolean;
}

function cases(): Case[] {
  const out: Case[] = [];
  for (const [template, methods] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const parameters = operation.parameters ?? [];
      const fill = (name: string, value: string) =>
        template.replace(/\{(\w+)\}/g, (_m, p: string) =>
          encodeURIComponent(p === name ? value : (GOOD_PATH[p] ?? '1')),
        );
      for (const parameter of parameters) {
        if (parameter.in !== 'query' && parameter.in !== 'path') continue;
        for (const [kind, value] of [
          ['NUL', NUL],
          ['bidi', BIDI],
          ['year 0', YEAR_ZERO],
        ] as const) {
          const path = parameter.in === 'path' ? fill(parameter.name, value) : fill('', '');
          const query =
            parameter.in === 'query' ? `?${parameter.name}=${encodeURIComponent(value)}` : '';
          out.push({
            label: `${method.toUpperCase()} ${template} ${parameter.in} ${parameter.name}: ${kind}`,
            method: method.toUpperCase(),
            url: `${path}${query}`,
            field: parameter.name,
            mustRefuse: kind !== 'year 0' || TIMES.has(parameter.name) || parameter.in === 'path',
          });
        }
      }
      const schema = operation.requestBody?.content?.['application/json']?.schema;
      for (const [name, property] of Object.entries(schema?.properties ?? {})) {
        const types = [property.type].flat();
        if (!types.includes('string')) continue;
        for (const [kind, value] of [
          ['NUL', NUL],
          ['bidi', BIDI],
        ] as const) {
          out.push({
            label: `${method.toUpperCase()} ${template} body ${name}: ${kind}`,
            method: method.toUpperCase(),
            url: fill('', ''),
            body: { [name]: value },
            field: name,
            mustRefuse: true,
          });
        }
      }
    }
  }
  return out;
}

describe('every parameter of every described route', () => {
  it('answers a NUL, a bidi override and year 0 with a 4xx naming the parameter, never a 500', async () => {
    const all = cases();
    // The description lists the API (about 50 operations); a walk of a handful would prove little.
    expect(all.length).toBeGreaterThan(150);
    const wrong: string[] = [];
    for (const c of all) {
      const res = await stack.app.inject({
        method: c.method as 'GET',
        url: c.url,
        headers: { ...signedIn, ...(c.body ? { 'content-type': 'application/json' } : {}) },
        ...(c.body ? { payload: JSON.stringify(c.body) } : {}),
      });
      const json = (() => {
        try {
          return res.json() as { ok?: unknown; error?: unknown };
        } catch {
          return null;
        }
      })();
      const shaped = json?.ok === false && typeof json.error === 'string' && json.error !== '';
      if (res.statusCode >= 500)
        wrong.push(`${c.label}: ${res.statusCode} ${res.body.slice(0, 120)}`);
      else if (c.mustRefuse && (res.statusCode < 400 || !shaped)) {
        wrong.push(`${c.label}: ${res.statusCode} ${res.body.slice(0, 120)}`);
      } else if (
        c.mustRefuse &&
        res.statusCode === 400 &&
        !(json!.error as string).includes(c.field)
      ) {
        wrong.push(`${c.label}: the 400 does not name ${c.field}: ${String(json!.error)}`);
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);
});

describe('the rules in words', () => {
  it.each([
    ['/api/countries?as_of=0000-01-01T00:00:00Z', 'as_of'],
    ['/api/events?from=0000-01-01', 'from'],
    ['/api/country/UKR/explain?from=0000-01-01&to=2026-03-01', 'from'],
    ['/api/history/global?to=2026-02-30', 'to'],
    ['/api/changes?since=2026-03-01T24:00:00Z', 'since'],
  ])('%s is a 400 naming %s as a real date from 1970 to 9999', async (url, name) => {
    const res = await stack.app.inject({ url, headers: signedIn });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      ok: false,
      error: expect.stringMatching(
        new RegExp(`^${name} must be an ISO 8601 time such as .*: a real date from 1970 to 9999`),
      ),
    });
  });

  it('a NUL in webhook_url (POST and PUT) is a 400 naming it, and nothing is stored', async () => {
    const list = {
      name: 'Desk',
      countries: ['UKR'],
      webhook_url: 'https://hooks.example.com/x\u0000y',
    };
    const post = await stack.app.inject({
      method: 'POST',
      url: '/api/watchlists',
      headers: signedIn,
      payload: list,
    });
    expect(post.statusCode).toBe(400);
    expect(post.json()).toEqual({
      ok: false,
      error:
        'webhook_url must not contain control or bidirectional characters (U+0000 at position 28)',
    });
    const made = await stack.app.inject({
      method: 'POST',
      url: '/api/watchlists',
      headers: signedIn,
      payload: { ...list, webhook_url: null },
    });
    expect(made.statusCode).toBe(201);
    const { id } = made.json().watchlist;
    const put = await stack.app.inject({
      method: 'PUT',
      url: `/api/watchlists/${id}`,
      headers: { ...signedIn, 'if-match': made.headers.etag as string },
      payload: list,
    });
    expect(put.statusCode).toBe(400);
    expect(put.json().error).toMatch(/^webhook_url must not contain control/);
    const lists = await stack.app.inject({ url: '/api/watchlists', headers: signedIn });
    expect(lists.statusCode).toBe(200);
    expect(lists.body).not.toContain('hooks.example.com');
  });

  it('a bidi override in a query parameter is named with its code point and position', async () => {
    const res = await stack.app.inject({
      url: `/api/events?q=${encodeURIComponent(BIDI)}`,
      headers: signedIn,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      ok: false,
      error: 'q must not contain control or bidirectional characters (U+202E at position 4)',
    });
  });

  it('line breaks and tabs stay allowed in a body, and a real date in range answers', async () => {
    const ok = await stack.app.inject({ url: '/api/events?from=1970-01-01', headers: signedIn });
    expect(ok.statusCode).toBe(200);
    const site = await stack.app.inject({
      method: 'POST',
      url: '/api/sites/import?dry_run=1',
      headers: { ...signedIn, 'content-type': 'application/json' },
      payload: JSON.stringify([
        { ref: 'T-1', name: 'Trip', kind: 'travel', lat: 50.45, lng: 30.52, from: '0000-01-01' },
      ]),
    });
    expect(site.json().rejected).toEqual([
      { row: 1, ref: 'T-1', reason: 'from: from is not a real calendar date from 1970 to 9999' },
    ]);
  });
});
