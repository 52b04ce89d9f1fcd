import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompressedAnswers } from '../../src/server/services/rendering/answer-compression.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { openAppStore } from '../helpers/history-store.js';
import { startHistoryStack, type HistoryStack } from '../helpers/history-stack.js';

/*
 * Issue 32, point 5: every JSON answer of 1 KB or more is compressed when the client asks,
 * whichever code built it (the cache's rendered bodies, the store's answers, route objects).
 * /api/changes and /api/history/global went out uncompressed when filed (70 KB and 30 KB).
 */
let store: HistoryStore;
let stack: HistoryStack;
const START = Date.UTC(2026, 5, 1, 12);

beforeAll(async () => {
  store = await openAppStore(365);
  stack = await startHistoryStack(store, { start: START });
  await stack.nextBatch();
  await stack.nextBatch();
}, 60_000);
afterAll(async () => {
  await stack?.close();
  await store?.close();
});

const ROUTES = [
  '/api/changes',
  '/api/history/global',
  '/api/history/country/UKR',
  '/api/events',
  '/api/openapi.json',
  '/api/reference/countries',
  '/api/countries',
  '/api/v1/hotspots',
];

describe('JSON answers over 1 KB', () => {
  it.each(ROUTES)('%s: br or gzip as asked, the same JSON, Vary', async (url) => {
    const plain = await stack.app.inject({ method: 'GET', url });
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.headers['content-type']).toMatch(/^application\/json/);
    expect(plain.headers['content-encoding']).toBeUndefined();
    // Only answers big enough to be worth it are in the list: check they are.
    expect(plain.rawPayload.length).toBeGreaterThanOrEqual(1024);

    const br = await stack.app.inject({
      method: 'GET',
      url,
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString('utf8'))).toEqual(plain.json());

    const gz = await stack.app.inject({
      method: 'GET',
      url,
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(Number(gz.headers['content-length'])).toBe(gz.rawPayload.length);
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString('utf8'))).toEqual(plain.json());
  });

  it('small answers and refusals stay as they are', async () => {
    const small = await stack.app.inject({
      method: 'GET',
      url: '/api/v1/hotspots?limit=1',
      headers: { 'accept-encoding': 'br' },
    });
    expect(small.headers['content-encoding']).toBeUndefined();
    const refused = await stack.app.inject({
      method: 'GET',
      url: '/api/changes?since=yesterday-ish',
      headers: { 'accept-encoding': 'br' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ ok: false });
  });

  it('compresses a body once per encoding: the same bytes for the same answer', () => {
    const memo = new CompressedAnswers(1_000_000);
    const body = Buffer.from(JSON.stringify({ rows: Array.from({ length: 500 }, (_, i) => i) }));
    const first = memo.encode(body, null, 'br');
    expect(first?.encoding).toBe('br');
    expect(memo.encode(Buffer.from(body), null, 'br')).toBe(first);
    expect(memo.encode(body, null, 'gzip')?.encoding).toBe('gzip');
    expect(memo.encode(body, null, 'identity')).toBeNull();
    const tagged = memo.encode(body, 'W/"abc"', 'gzip');
    expect(tagged?.etag).toBe('W/"abc-gzip"');
  });
});
