import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RenderedBodies } from '../../src/server/cache/rendered-bodies.js';
import { pickEncoding } from '../../src/server/cache/encoding.js';
import { get, startTestStack } from '../helpers/bff.js';
import type { TestClock } from '../helpers/clock.js';
import type { Stack } from '../helpers/stack.js';

const precompress = resolve(import.meta.dirname, '../../scripts/precompress.mjs');

let stack: (Stack & { clock: TestClock }) | null = null;
afterEach(async () => {
  await stack?.close();
  stack = null;
});

describe('JSON answers from the cache', () => {
  it('gzip when accepted: same JSON, Vary, its own ETag; identity without Accept-Encoding', async () => {
    stack = await startTestStack();
    const plain = await get(stack, '/api/countries');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    const zipped = await get(stack, '/api/countries', { headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.statusCode).toBe(200);
    expect(zipped.headers['x-cache']).toBe('HIT');
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toMatch(/accept-encoding/i);
    expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(Number(zipped.headers['content-length'])).toBe(zipped.rawPayload.length);
    expect(JSON.parse(gunzipSync(zipped.rawPayload).toString('utf8'))).toEqual(plain.json());

    const plainTag = String(plain.headers.etag);
    const zippedTag = String(zipped.headers.etag);
    expect(zippedTag).not.toBe(plainTag);
    expect(zippedTag).toBe(`${plainTag.slice(0, -1)}-gzip"`);
  });

  it('prefers br when accepted with gzip, and honours q=0', async () => {
    stack = await startTestStack();
    const plain = await get(stack, '/api/countries');
    const br = await get(stack, '/api/countries', {
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString('utf8'))).toEqual(plain.json());
    const refused = await get(stack, '/api/countries', {
      headers: { 'accept-encoding': 'br;q=0, gzip;q=0' },
    });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.rawPayload.equals(plain.rawPayload)).toBe(true);
  });

  it('If-None-Match matches only the representation it was given for', async () => {
    stack = await startTestStack();
    const gzip = { 'accept-encoding': 'gzip' };
    const zipped = await get(stack, '/api/countries', { headers: gzip });
    const plain = await get(stack, '/api/countries');
    const again = await get(stack, '/api/countries', {
      headers: { ...gzip, 'if-none-match': String(zipped.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.headers.vary).toMatch(/accept-encoding/i);
    const other = await get(stack, '/api/countries', {
      headers: { ...gzip, 'if-none-match': String(plain.headers.etag) },
    });
    expect(other.statusCode).toBe(200);
    expect(other.headers['content-encoding']).toBe('gzip');
  });

  it('small bodies stay uncompressed', async () => {
    stack = await startTestStack();
    const res = await get(stack, '/api/v1/hotspots?limit=1', {
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBeLessThan(1024);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json().count).toBe(1);
  });

  it('compresses a rendered body once and reuses the result; a new entry is a new body', () => {
    const bodies = new RenderedBodies(1_000_000);
    const rows = { rows: Array.from({ length: 200 }, (_, i) => i) };
    const entry = { key: 'k', fetchedAt: 0, asOf: null, value: rows, size: 1 };
    const record = bodies.get(entry, 'all', () => rows);
    const first = bodies.encode(record, 'gzip');
    expect(first?.encoding).toBe('gzip');
    expect(first?.etag).toBe(`${record.etag.slice(0, -1)}-gzip"`);
    expect(
      bodies.encode(
        bodies.get(entry, 'all', () => rows),
        'gzip',
      )?.body,
    ).toBe(first?.body);
    expect(gunzipSync(first?.body ?? Buffer.alloc(0)).equals(record.body)).toBe(true);
    const refetched = { ...entry };
    expect(bodies.get(refetched, 'all', () => rows)).not.toBe(record);
  });

  it('reads Accept-Encoding with weights and wildcards', () => {
    expect(pickEncoding(undefined)).toBeNull();
    expect(pickEncoding('identity')).toBeNull();
    expect(pickEncoding('gzip')).toBe('gzip');
    expect(pickEncoding('gzip;q=1, br;q=0.5')).toBe('gzip');
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding('*, br;q=0')).toBe('gzip');
  });
});

describe('built assets', () => {
  let clientDir: string;
  const source = `export const rows = ${JSON.stringify(
    Array.from({ length: 400 }, (_, i) => ({ iso: `C${i}`, score: i % 7 })),
  )};\n`;
  beforeAll(() => {
    clientDir = mkdtempSync(join(tmpdir(), 'grd-client-'));
    mkdirSync(join(clientDir, 'assets'));
    writeFileSync(join(clientDir, 'index.html'), '<!doctype html><title>Risk</title>');
    writeFileSync(join(clientDir, 'assets', 'index-Zz9.js'), source);
    writeFileSync(join(clientDir, 'assets', 'tiny-Aa1.js'), 'export {};\n');
    // The script the build runs after `vite build`, on this folder.
    execFileSync(process.execPath, [precompress, join(clientDir, 'assets')]);
  });
  afterAll(() => {
    rmSync(clientDir, { recursive: true, force: true });
  });

  it('the build script writes smaller .br and .gz siblings, none for tiny files', () => {
    const gz = readFileSync(join(clientDir, 'assets', 'index-Zz9.js.gz'));
    const br = readFileSync(join(clientDir, 'assets', 'index-Zz9.js.br'));
    expect(gunzipSync(gz).toString('utf8')).toBe(source);
    expect(brotliDecompressSync(br).toString('utf8')).toBe(source);
    expect(br.length).toBeLessThan(source.length / 3);
    expect(existsSync(join(clientDir, 'assets', 'tiny-Aa1.js.gz'))).toBe(false);
  });

  it('are served pre-compressed with the immutable cache header; missing ones stay 404 JSON', async () => {
    stack = await startTestStack({ clientDir });
    const url = '/assets/index-Zz9.js';
    const br = await get(stack, url, { headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(source);

    const gz = await get(stack, url, { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString('utf8')).toBe(source);

    const plain = await get(stack, url);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(source);

    const tiny = await get(stack, '/assets/tiny-Aa1.js', { headers: { 'accept-encoding': 'br' } });
    expect(tiny.statusCode).toBe(200);
    expect(tiny.headers['content-encoding']).toBeUndefined();

    const missing = await get(stack, '/assets/missing-123.js', {
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ ok: false });
  });
});
