import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { referenceCountriesResponseSchema } from '../../src/shared/history-api.js';
import { get, startTestStack, upstreamRequestsDuring } from '../helpers/bff.js';
import type { TestClock } from '../helpers/clock.js';
import type { Stack } from '../helpers/stack.js';

let stack: (Stack & { clock: TestClock }) | null = null;
afterEach(async () => {
  await stack?.close();
  stack = null;
});

/** The ISO code whose name or one of whose aliases is exactly `typed` (case-insensitive). */
function resolve(countries: { iso: string; name: string; aliases: string[] }[], typed: string) {
  const key = typed.toLowerCase();
  return countries
    .filter((c) => [c.name, ...c.aliases].some((n) => n.toLowerCase() === key))
    .map((c) => c.iso);
}

describe('GET /api/reference/countries', () => {
  it('lists every ISO 3166-1 country with names, aliases and UN regions, spending nothing upstream', async () => {
    stack = await startTestStack();
    let reply: Awaited<ReturnType<typeof get>> | undefined;
    const spent = await upstreamRequestsDuring(stack, async () => {
      reply = await get(stack!, '/api/reference/countries');
    });
    expect(spent).toBe(0);
    expect(reply!.statusCode).toBe(200);
    const body = referenceCountriesResponseSchema.parse(reply!.json());
    // 249 officially assigned codes plus Kosovo (XKX), each once.
    expect(body.countries).toHaveLength(250);
    expect(new Set(body.countries.map((c) => c.iso)).size).toBe(250);
    for (const country of body.countries) expect(country.iso).toMatch(/^[A-Z]{3}$/);
    const mali = body.countries.find((c) => c.iso === 'MLI');
    expect(mali).toMatchObject({
      name: 'Mali',
      official_name: 'Republic of Mali',
      region: 'Africa',
      subregion: 'Western Africa',
    });
    expect(body.countries.find((c) => c.iso === 'XKX')?.name).toBe('Kosovo');
    expect(body.countries.find((c) => c.iso === 'BOL')?.name).toBe('Bolivia');
  });

  it('resolves the names people type', async () => {
    stack = await startTestStack();
    const { countries } = referenceCountriesResponseSchema.parse(
      (await get(stack, '/api/reference/countries')).json(),
    );
    const expected: Record<string, string> = {
      UK: 'GBR',
      'Great Britain': 'GBR',
      'Ivory Coast': 'CIV',
      "Côte d'Ivoire": 'CIV',
      Burma: 'MMR',
      Russia: 'RUS',
      'South Korea': 'KOR',
      Iran: 'IRN',
      America: 'USA',
      Turkey: 'TUR',
      DRC: 'COD',
    };
    for (const [typed, iso] of Object.entries(expected)) {
      expect(resolve(countries, typed), typed).toEqual([iso]);
    }
  });

  it('is static: strong ETag, long cache, gzip, 304 on revalidation', async () => {
    stack = await startTestStack();
    const plain = await get(stack, '/api/reference/countries');
    expect(plain.headers['cache-control']).toMatch(/max-age=86400/);
    const etag = String(plain.headers.etag);
    expect(etag).toMatch(/^"[^"]+"$/);
    const zipped = await get(stack, '/api/reference/countries', {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(zipped.rawPayload).toString('utf8'))).toEqual(plain.json());
    // Measured size, recorded in the report and README: 47 KB raw, 9.7 KB gzipped (level 6).
    expect(zipped.rawPayload.length).toBeLessThan(15 * 1024);
    const again = await get(stack, '/api/reference/countries', {
      headers: { 'accept-encoding': 'gzip', 'if-none-match': String(zipped.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('refuses unknown query parameters with a plain 400', async () => {
    stack = await startTestStack();
    const reply = await get(stack, '/api/reference/countries?region=Africa');
    expect(reply.statusCode).toBe(400);
    expect(reply.json()).toEqual({
      ok: false,
      error: 'Unknown query parameter "region" (it takes none)',
    });
  });
});
