import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/demo-harness.js';

describe('demo upstream: GET /api/openapi.json', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('serves a valid OpenAPI 3.1 document, without a key and without spending quota', async () => {
    const before = h.upstream.requestCount();
    const response = await h.get('/api/openapi.json', null);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const document = await response.json();
    expect(document.openapi).toMatch(/^3\.1\./);
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(h.upstream.requestCount()).toBe(before);
  });

  it('describes the three endpoints, their parameters, statuses and the bearer scheme', async () => {
    const document = await (await h.get('/api/openapi.json', null)).json();
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/api/v1/hotspots', '/api/v1/country/{iso}', '/api/v1/export']),
    );
    const hotspots = document.paths['/api/v1/hotspots'].get;
    expect(hotspots.parameters.map((p: { name: string }) => p.name)).toEqual([
      'limit',
      'tier',
      'include',
    ]);
    expect(hotspots.parameters[0].schema).toMatchObject({ maximum: 50, default: 20 });
    expect(Object.keys(hotspots.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '429', '500', '502', '503']),
    );
    expect(Object.keys(document.paths['/api/v1/country/{iso}'].get.responses)).toEqual(
      expect.arrayContaining(['200', '400', '404']),
    );
    expect(document.paths['/api/v1/export'].get.parameters[0].schema.enum).toEqual(['csv', 'json']);
    expect(document.components.securitySchemes.bearerKey).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    expect(document.security).toEqual([{ bearerKey: [] }]);
    expect(document.paths['/api/openapi.json'].get.security).toEqual([]);
  });

  it('describes a real answer: the hotspot list carries every required field of its schema', async () => {
    const document = await (await h.get('/api/openapi.json', null)).json();
    const body = await (await h.get('/api/v1/hotspots?include=categories,events')).json();
    const schemas = document.components.schemas;
    expect(Object.keys(body)).toEqual(expect.arrayContaining(schemas.HotspotList.required));
    expect(Object.keys(body.hotspots[0])).toEqual(expect.arrayContaining(schemas.Hotspot.required));
    expect(Object.keys(body.global)).toEqual(expect.arrayContaining(schemas.Global.required));
    expect(Object.keys(body.hotspots[0].events[0])).toEqual(schemas.Event.required);
  });
});
