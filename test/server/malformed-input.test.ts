import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { openAppStore } from '../helpers/history-store.js';
import { startHistoryStack, type HistoryStack } from '../helpers/history-stack.js';

/*
 * Every API route, found from the router itself (a new route is walked too), with malformed path
 * parameters, query values and bodies: each answer is a 4xx in the house shape with a sentence,
 * never a 5xx and never a success.
 */
const USER = { 'x-forwarded-user': 'ana' };

let store: HistoryStore;
let stack: HistoryStack;
/** The API as described (`/api/openapi.json`): which query parameters each operation takes. */
let openapiPaths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
beforeAll(async () => {
  store = await openAppStore();
  stack = await startHistoryStack(store, {
    start: Date.UTC(2026, 2, 1, 8, 0, 0),
    config: {
      access: {
        dashboardToken: null,
        trustedProxyAuthHeader: 'x-forwarded-user',
        trustedProxyAddresses: ['127.0.0.1'],
        allowAnonymous: false,
      },
    },
  });
  await stack.nextBatch();
  const described = await stack.app.inject({ url: '/api/openapi.json', headers: USER });
  expect(described.statusCode).toBe(200);
  openapiPaths = (described.json() as { paths: typeof openapiPaths }).paths;
  // One real list, so id routes have something to find when an id is well formed. Bodies below
  // use another name, so each is refused for its own flaw, not as a duplicate.
  const made = await stack.app.inject({
    method: 'POST',
    url: '/api/watchlists',
    headers: USER,
    payload: { name: 'Existing list', countries: ['MLI'] },
  });
  expect(made.statusCode).toBe(201);
}, 90_000);
afterAll(async () => {
  await stack?.close();
  await store?.close();
});

interface Route {
  path: string;
  methods: string[];
}

/** The API routes as the router lists them (`printRoutes`), with their methods. */
function apiRoutes(): Route[] {
  const routes: Route[] = [];
  const stackOfSegments: string[] = [];
  for (const line of stack.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+) \(([^)]+)\)$/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? '').length / 4;
    stackOfSegments.length = depth;
    stackOfSegments.push(match[2] ?? '');
    const path = stackOfSegments.join('');
    if (path.startsWith('/api/') && !path.includes('*')) {
      routes.push({ path, methods: (match[3] ?? '').split(', ').filter((m) => m !== 'HEAD') });
    }
  }
  return routes;
}

/** Malformed for any path parameter (ids are digits, ISO codes three letters). */
const BAD_PARAMS = [
  'x',
  '0',
  '-1',
  '1.5',
  'Infinity',
  '1e999',
  '99999999999999999999999999',
  '9223372036854775808',
  '%FF',
  '%C0%AF',
  '%E2%80%AE',
  '%00',
  '%20',
  'a'.repeat(900),
  '%5B%5D',
];
/** Malformed only for some: `NaN` is three letters, a well-formed ISO code nobody has. */
const BAD_PARAMS_BY_NAME: Record<string, string[]> = { ':id': ['NaN', 'abc'], ':iso': ['M1I'] };

/** Malformed for any query parameter. */
const BAD_VALUES = ['%FF', '%C0%AF', '%', '%zz', '%00', '%0A', 'a'.repeat(5000)];
/** Malformed for the parameter of that name (unknown names are refused whatever the value). */
const BAD_VALUES_BY_NAME: Record<string, string[]> = {
  limit: ['NaN', '-1', '0', '1.5', '1e999', '99999999999999999999999999', '', ' 5', '0x10'],
  tier: ['', ',', 'A B', 'crit,,high', 'x'.repeat(40)],
  include: ['', 'x', 'events,x'],
  format: ['', 'xml', 'CSV '],
  since: ['', 'NaN', '-1', '1e999', '2026-13-45', '24x', 'yesterday'],
  from: ['', 'NaN', '1e999', '2026-13-45', '2026-02-30T25:00:00Z', '99999-01-01'],
  to: ['', 'NaN', '1e999', '2026-13-45', '+275760-09-13T00:00:01Z'],
  iso: ['', 'x', 'M1I', 'MLIX', '%E2%80%AEMLI'],
  cursor: ['', 'NaN', '-1', '1e999', '99999999999999999999999999', 'abc'],
  unread: ['', 'maybe', '2', 'NaN'],
  watchlist: ['', 'NaN', '-1', '0', '1e999', '99999999999999999999999999'],
  q: ['', 'q'.repeat(5000)],
  role: ['', 'A B', '%00'],
  breaking: ['', 'maybe', '2'],
  x: ['1'],
};

interface Attempt {
  method: string;
  url: string;
  headers?: Record<string, string>;
  payload?: string | Buffer;
}

function expectRefusedInWords(res: { statusCode: number; body: string }, what: string): void {
  expect(res.statusCode, what).toBeGreaterThanOrEqual(400);
  expect(res.statusCode, what).toBeLessThan(500);
  const body = JSON.parse(res.body) as { ok: unknown; error: unknown };
  expect(body.ok, what).toBe(false);
  expect(typeof body.error, what).toBe('string');
  // A sentence a person can read: words, not a code or a stack.
  expect(body.error as string, what).toMatch(/[A-Za-z]{3,} [A-Za-z]{2,}/);
  expect(body.error as string, what).not.toMatch(/\n\s+at |Zod|ZodError|invalid_type|FST_/);
}

async function refused(attempt: Attempt): Promise<void> {
  const res = await stack.app.inject({
    ...attempt,
    method: attempt.method as 'GET',
    headers: { ...USER, 'if-match': '"1"', ...attempt.headers },
  });
  expectRefusedInWords(res, `${attempt.method} ${attempt.url.slice(0, 120)}`);
}

function fill(path: string, value: string): string {
  return path.replace(/:[a-z]+/g, value);
}

/**
 * The query parameters a route's method takes, as its description says; null when it is not
 * described (every name is then tried with every value).
 */
function acceptedQuery(path: string, method: string): Set<string> | null {
  const operation = openapiPaths[path.replace(/:([a-z]+)/g, '{$1}')]?.[method.toLowerCase()];
  if (!operation) return null;
  return new Set((operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name));
}

const GOOD_PARAM: Record<string, string> = { ':iso': 'MLI', ':id': '1' };
function good(path: string): string {
  return path.replace(/:[a-z]+/g, (p) => GOOD_PARAM[p] ?? 'x');
}

describe('malformed input, every API route', () => {
  it('finds the routes to walk', () => {
    const paths = apiRoutes().map((r) => r.path);
    expect(paths).toEqual(expect.arrayContaining(['/api/watchlists/:id', '/api/alerts/read']));
    expect(paths.length).toBeGreaterThanOrEqual(18);
  });

  it('malformed path parameters are a 4xx in words', async () => {
    for (const route of apiRoutes().filter((r) => r.path.includes(':'))) {
      for (const method of route.methods) {
        const names = route.path.match(/:[a-z]+/g) ?? [];
        const values = [...BAD_PARAMS, ...names.flatMap((n) => BAD_PARAMS_BY_NAME[n] ?? [])];
        for (const value of values) {
          await refused({
            method,
            url: fill(route.path, value),
            payload: '{}',
            headers: { 'content-type': 'application/json' },
          });
        }
      }
    }
  }, 120_000);

  it('malformed, repeated and unknown query values are a 4xx in words', async () => {
    for (const route of apiRoutes()) {
      for (const method of route.methods) {
        const url = good(route.path);
        const accepted = acceptedQuery(route.path, method);
        const attempts: string[] = [];
        for (const [name, specific] of Object.entries(BAD_VALUES_BY_NAME)) {
          // A name the route does not take is refused whatever its value: one value proves it
          // (the values that break the query string itself are tried under `x`, never taken).
          const values =
            !accepted || accepted.has(name) || name === 'x' ? [...BAD_VALUES, ...specific] : ['1'];
          for (const value of values) attempts.push(`${name}=${value}`);
          attempts.push(`${name}=1&${name}=2`, `${name}[]=1`, `${name}[a]=1`);
        }
        attempts.push('%FF=1', 'a'.repeat(3000), '&&&=&=');
        for (const query of attempts) {
          await refused({
            method,
            url: `${url}?${query}`,
            payload: method === 'GET' || method === 'DELETE' ? undefined : '{}',
            headers: { 'content-type': 'application/json' },
          });
        }
      }
    }
  }, 180_000);

  it('malformed bodies are a 4xx in words', async () => {
    const json = { 'content-type': 'application/json' };
    const bodies: Array<[Record<string, string>, string | Buffer]> = [
      [json, '[]'],
      [json, '"name"'],
      [json, '1'],
      [json, 'null'],
      [json, 'true'],
      [json, '{'],
      [json, '{"name": NaN}'],
      [json, ''],
      [json, '{"__proto__": {"x": 1}}'],
      [json, '{"constructor": {"prototype": {"x": 1}}}'],
      [json, JSON.stringify({ name: ['Sahel'], countries: 'MLI' })],
      [json, JSON.stringify({ name: 'Sahel', countries: [['MLI']] })],
      [
        json,
        JSON.stringify({
          name: 'Sahel',
          countries: ['MLI'],
          rules: [{ kind: 'active_change', min_abs_delta: 1e308 }],
        }),
      ],
      [
        json,
        JSON.stringify({
          name: 'Sahel',
          countries: ['MLI'],
          rules: [{ kind: 'active_change', min_abs_delta: '5' }],
        }),
      ],
      [json, JSON.stringify({ name: 'Sahel', countries: ['MLI'], rules: {} })],
      [json, JSON.stringify({ name: 'Sahel', countries: ['MLI'], scope: ['team'] })],
      [json, JSON.stringify({ name: 'Sahel', countries: ['MLI'], email: 'a@b.c\r\nBcc: x@y.z' })],
      [
        json,
        JSON.stringify({ name: 'Sahel', countries: ['MLI'], webhook_url: 'javascript:alert(1)' }),
      ],
      [json, JSON.stringify({ name: 'Sahel', countries: ['M\u0000I'] })],
      [json, JSON.stringify({ name: 'Sa\u202Ehel', countries: ['MLI'] })],
      [json, JSON.stringify({ name: 'x'.repeat(20_000), countries: ['MLI'] })],
      [json, '{"ids": [1e999]}'],
      [json, JSON.stringify({ ids: ['99999999999999999999'] })],
      [json, JSON.stringify({ ids: 'all' })],
      [json, JSON.stringify({ all: 'true' })],
      // Invalid UTF-8 in an otherwise valid list: stored as U+FFFD would not be what was sent.
      [
        json,
        Buffer.concat([
          Buffer.from('{"name":"Sa'),
          Buffer.from([0xff, 0xfe]),
          Buffer.from('hel","countries":["MLI"]}'),
        ]),
      ],
      [{ 'content-type': 'text/plain' }, 'name=Sahel'],
      [{ 'content-type': 'application/xml' }, '<name>Sahel</name>'],
      [{ 'content-type': 'application/x-www-form-urlencoded' }, 'name=Sahel&countries=MLI'],
      [{ 'content-type': 'multipart/form-data; boundary=x' }, '--x--'],
      [{ 'content-type': 'application/json; charset=latin1' }, '{"name":"S\u00e4hel"}'],
    ];
    for (const route of apiRoutes()) {
      for (const method of route.methods.filter((m) => m === 'POST' || m === 'PUT')) {
        for (const [headers, payload] of bodies) {
          await refused({ method, url: good(route.path), headers, payload });
        }
      }
    }
  }, 120_000);
});
