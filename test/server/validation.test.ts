import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, startTestStack } from '../helpers/bff.js';
import type { Stack } from '../helpers/stack.js';

// Every bad input is refused by the BFF itself with a message naming the parameter, and costs
// the upstream nothing. The cache is warm first, so a 400 can't be mistaken for a cache effect.

let stack: Stack;
beforeAll(async () => {
  stack = await startTestStack();
  await get(stack, '/api/v1/hotspots');
  await get(stack, '/api/v1/country/UKR');
});
afterAll(async () => {
  await stack.close();
});

const badInputs: Array<[url: string, names: RegExp]> = [
  // limit
  ['/api/v1/hotspots?limit=0', /limit/],
  ['/api/v1/hotspots?limit=51', /limit/],
  ['/api/v1/hotspots?limit=-1', /limit/],
  ['/api/v1/hotspots?limit=abc', /limit/],
  ['/api/v1/hotspots?limit=2.5', /limit/],
  ['/api/v1/hotspots?limit=', /limit/],
  ['/api/v1/hotspots?limit=1e1', /limit/],
  ['/api/v1/hotspots?limit=%2010', /limit/],
  ['/api/v1/hotspots?limit=99999999999999999999', /limit/],
  ['/api/v1/hotspots?limit=10&limit=20', /limit was given more than once/],
  // tier
  ['/api/v1/hotspots?tier=', /tier has an empty item/],
  ['/api/v1/hotspots?tier=crit,', /tier has an empty item \(position 2\)/],
  ['/api/v1/hotspots?tier=,high', /tier has an empty item \(position 1\)/],
  ['/api/v1/hotspots?tier=crit,,high', /tier has an empty item/],
  ['/api/v1/hotspots?tier=CRIT', /tier item "CRIT"/],
  ['/api/v1/hotspots?tier=crit%20high', /tier item/],
  ['/api/v1/hotspots?tier=%3Cscript%3E', /tier item/],
  ['/api/v1/hotspots?tier=h%C3%B6ch', /tier item/],
  [`/api/v1/hotspots?tier=${'a'.repeat(33)}`, /tier item/],
  [
    `/api/v1/hotspots?tier=${Array.from({ length: 17 }, (_, i) => `t${i}`).join(',')}`,
    /tier may list/,
  ],
  // include
  ['/api/v1/hotspots?include=sources', /include may only list categories and events/],
  ['/api/v1/hotspots?include=', /include/],
  ['/api/v1/hotspots?include=events,', /include/],
  ['/api/v1/hotspots?include=Events', /include/],
  // unknown parameters
  ['/api/v1/hotspots?tiers=crit', /Unknown query parameter "tiers"/],
  ['/api/v1/hotspots?limit=5&foo=bar', /Unknown query parameter "foo"/],
  ['/api/v1/country/UKR?include=events', /Unknown query parameter "include"/],
  ['/api/countries?format=csv', /Unknown query parameter "format"/],
  // iso
  ['/api/v1/country/UK', /iso must be a three-letter/],
  ['/api/v1/country/UKRA', /iso/],
  ['/api/v1/country/U1R', /iso/],
  ['/api/v1/country/123', /iso/],
  ['/api/v1/country/%2E%2E%2F', /iso/],
  ['/api/v1/country/..%2Fetc', /iso/],
  ['/api/v1/country/%C3%84BC', /iso/],
  ['/api/v1/country/%D0%A3KR', /iso/],
  ['/api/v1/country/UK%00', /iso/],
  ['/api/v1/country/UKR%0A', /iso/],
  [`/api/v1/country/${'A'.repeat(300)}`, /iso/],
  ['/api/v1/country/', /iso is missing/],
  // format
  ['/api/v1/export?format=xml', /format must be csv or json/],
  ['/api/v1/export?format=JSON', /format/],
  ['/api/v1/export?format=', /format/],
  ['/api/v1/export?format=csv&format=json', /format was given more than once/],
  ['/api/v1/export?fmt=json', /Unknown query parameter "fmt"/],
];

describe('400 before spending', () => {
  it('covers at least 30 bad inputs', () => {
    expect(badInputs.length).toBeGreaterThanOrEqual(30);
  });

  it.each(badInputs)('%s → 400 naming the problem, no upstream request', async (url, names) => {
    const before = stack.upstream.requestCount();
    const res = await get(stack, url);
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body).toEqual({ ok: false, error: expect.stringMatching(names) });
    expect(stack.upstream.requestCount()).toBe(before);
  });

  it('normalises equivalent requests to one cache entry', async () => {
    await get(stack, '/api/v1/hotspots?tier=low,mod&limit=50');
    const before = stack.upstream.requestCount();
    for (const url of [
      '/api/v1/hotspots?tier=mod,low&limit=50',
      '/api/v1/hotspots?tier=low,mod,low&limit=50',
      '/api/v1/country/ukr',
      '/api/v1/country/Ukr',
    ]) {
      expect((await get(stack, url)).statusCode).toBe(200);
    }
    expect(stack.upstream.requestCount()).toBe(before);
  });
});
