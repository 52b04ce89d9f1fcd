import { Validator } from '@seriousme/openapi-schema-validator';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOperations } from '../../src/server/routes/api-description.js';
import { describeApi } from '../../src/server/routes/openapi.js';
import { noQuery } from '../../src/server/routes/params.js';
import { zodRoute } from '../../src/server/routes/route-schema.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { openAppStore } from '../helpers/history-store.js';
import { startHistoryStack, type HistoryStack } from '../helpers/history-stack.js';

/*
 * The BFF's own API, described: GET /api/openapi.json is a valid OpenAPI 3.1 document generated
 * from the routes' zod schemas and the description table, and neither can drift from the routes.
 */
let store: HistoryStore;
let stack: HistoryStack;
let document: {
  openapi: string;
  paths: Record<string, Record<string, Record<string, unknown>>>;
};
beforeAll(async () => {
  store = await openAppStore();
  stack = await startHistoryStack(store, { start: Date.UTC(2026, 2, 1, 8) });
  const response = await stack.app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(response.statusCode).toBe(200);
  document = response.json();
}, 60_000);
afterAll(async () => {
  await stack?.close();
  await store?.close();
});

const pathOf = (url: string) => url.replace(/:([a-z]+)/g, '{$1}');

describe('GET /api/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('describes every operation of the description table, and nothing outside the API', () => {
    const described = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const expected = Object.keys(apiOperations).map((key) => {
      const [method, url] = key.split(' ') as [string, string];
      return `${method} ${pathOf(url)}`;
    });
    expect(described.sort()).toEqual(expected.sort());
  });

  it("carries each route's own parameters, with their rules", () => {
    const hotspots = document.paths['/api/v1/hotspots']!.get!;
    const names = (hotspots.parameters as { name: string; in: string }[]).map(
      (p) => `${p.in}:${p.name}`,
    );
    expect(names).toEqual(expect.arrayContaining(['query:limit', 'query:tier', 'query:include']));
    const country = document.paths['/api/v1/country/{iso}']!.get!;
    expect(country.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ in: 'path', name: 'iso', required: true }),
      ]),
    );
  });

  it('documents the watchlist body, the success answers and the error shape', () => {
    const create = document.paths['/api/watchlists']!.post!;
    const body = (create.requestBody as { content: Record<string, { schema: unknown }> }).content[
      'application/json'
    ]!.schema as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(body.properties)).toEqual(
      expect.arrayContaining(['name', 'countries', 'rules', 'webhook_url']),
    );
    expect(body.required).toEqual(expect.arrayContaining(['name', 'countries']));
    const responses = create.responses as Record<string, { content?: Record<string, unknown> }>;
    expect(Object.keys(responses)).toEqual(expect.arrayContaining(['201', '4XX', '5XX']));
    const error = (responses['4XX']!.content!['application/json'] as { schema: unknown }).schema;
    expect(error).toMatchObject({ properties: { ok: {}, error: { type: 'string' } } });
  });
});

describe('the description cannot drift from the routes', () => {
  async function appWith(register: (app: ReturnType<typeof Fastify>) => void) {
    const app = Fastify();
    await describeApi(app);
    await app.register(async (scope) => register(scope));
    await app.ready();
    return app;
  }

  it('refuses to build an app with an API route the table does not describe', async () => {
    await expect(
      appWith((app) => app.get('/api/not-described', zodRoute({ querystring: noQuery }), () => '')),
    ).rejects.toThrow(/GET \/api\/not-described is not described/);
  });

  it('refuses to build an app with an API route that declares no query schema', async () => {
    await expect(appWith((app) => app.get('/api/watchlists', () => ''))).rejects.toThrow(
      /GET \/api\/watchlists declares no querystring schema/,
    );
  });

  it('accepts a described route with its schema, and routes outside the API', async () => {
    const app = await appWith((scope) => {
      scope.get('/api/watchlists', zodRoute({ querystring: noQuery }), () => '');
      scope.get('/healthz', () => 'ok');
      scope.get('/api/v1/country/', () => 'refused');
    });
    const paths = Object.keys((app.swagger() as { paths: object }).paths);
    expect(paths).toEqual(['/api/watchlists']);
  });
});
