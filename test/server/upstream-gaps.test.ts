import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { countriesResponseSchema } from '../../src/shared/bff-api.js';
import { CATEGORY_NAMES } from '../../src/shared/categories.js';
import { buildApp } from '../../src/server/compose/app.js';
import { Secret } from '../../src/server/secret.js';
import { startTestStack } from '../helpers/bff.js';
import type { TestClock } from '../helpers/clock.js';
import type { Stack } from '../helpers/stack.js';
import { testConfig } from '../helpers/test-config.js';
import { startVariantUpstream, type VariantUpstream } from '../helpers/variant-upstream.js';

// Against an upstream that chose differently where the document is silent, the BFF falls back to
// the documented endpoints and reads the CSV by header name.

let stack: Stack & { clock: TestClock };
let variant: VariantUpstream;
let app: FastifyInstance;
beforeEach(async () => {
  stack = await startTestStack();
  variant = await startVariantUpstream(stack.upstream.url);
  app = (
    await buildApp(testConfig(), {
      upstream: { mode: 'live', baseUrl: variant.url, apiKey: new Secret(stack.key) },
      now: stack.clock.now,
    })
  ).app;
});
afterEach(async () => {
  await app.close();
  await variant.close();
  await stack.close();
});

const paths = () =>
  stack.upstream.requestLog().map((e) => (e.query ? `${e.path}?${e.query}` : e.path));

describe('a JSON export without a countries array', () => {
  it('country detail falls back to the endpoint, one request per country, cached', async () => {
    const ukr = await app.inject('/api/v1/country/ukr');
    expect(ukr.statusCode).toBe(200);
    expect(ukr.json().country.iso).toBe('UKR');
    expect(paths()).toEqual(['/api/v1/export?format=json', '/api/v1/country/UKR']);
    expect((await app.inject('/api/v1/country/FRA')).statusCode).toBe(200);
    expect((await app.inject('/api/v1/country/UKR')).headers['x-cache']).toBe('HIT');
    const absent = await app.inject('/api/v1/country/ATA');
    expect(absent.statusCode).toBe(404);
    expect(absent.json().error).toMatch(/ATA is not in the current data/);
    expect((await app.inject('/api/v1/country/ATA')).headers['x-cache']).toBe('HIT');
    // The export was asked once for the batch, not once per country.
    expect(paths()).toEqual([
      '/api/v1/export?format=json',
      '/api/v1/country/UKR',
      '/api/v1/country/FRA',
      '/api/v1/country/ATA',
    ]);
  });
});

describe('a CSV export with other columns and comments', () => {
  it('/api/countries reads it by header name and matches the data', async () => {
    const res = await app.inject('/api/countries');
    expect(res.statusCode).toBe(200);
    const body = countriesResponseSchema.parse(res.json());
    expect(paths()).toEqual(['/api/v1/export?format=json', '/api/v1/export?format=csv']);
    const direct = await fetch(`${stack.upstream.url}/api/v1/export?format=json`, {
      headers: { authorization: `Bearer ${stack.key}` },
    });
    const truth = (await direct.json()) as {
      as_of: string;
      global: { ggri: number };
      countries: Array<
        Record<string, unknown> & { iso: string; categories: Record<string, object> }
      >;
    };
    expect(body.as_of).toBe(truth.as_of);
    expect(body.global?.ggri).toBe(truth.global.ggri);
    expect(body.count).toBe(truth.countries.length);
    const civ = truth.countries.find((c) => c.iso === 'CIV');
    const row = body.countries.find((c) => c.iso === 'CIV');
    expect(row?.name).toBe(civ?.name);
    expect(row?.risk).toBe(civ?.risk);
    expect(row?.threat_vectors).toEqual(civ?.threat_vectors);
    expect(row?.lng ?? null).toBeNull();
    expect((row as Record<string, unknown>).region).toBe('somewhere, far');
    for (const name of CATEGORY_NAMES) {
      expect(row?.categories?.[name]).toEqual(civ?.categories[name]);
    }
  });
});
