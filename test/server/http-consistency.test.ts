import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { get, startTestStack } from '../helpers/bff.js';
import type { TestClock } from '../helpers/clock.js';
import type { Stack } from '../helpers/stack.js';
import { tempDataDir } from '../helpers/test-config.js';

// Every answer in the one shape, with the status HTTP means: 405 with Allow, JSON for bad URLs and
// methods, no echoed paths, If-None-Match lists and `*`.

let stack: Stack & { clock: TestClock };
afterEach(async () => {
  await stack.close();
});

function clientDir(): string {
  const dir = tempDataDir('grd-client-');
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>GRD</title>');
  return dir;
}

/** A raw request over the socket, for what inject cannot send (methods Node's parser refuses). */
function raw(method: string, path: string): Promise<{ status: number; body: string }> {
  const url = new URL(stack.baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('HTTP consistency', () => {
  it('other methods on API routes are 405 with Allow', async () => {
    stack = await startTestStack();
    for (const [method, url] of [
      ['POST', '/api/v1/hotspots'],
      ['DELETE', '/api/status'],
      ['PUT', '/api/v1/country/UKR'],
      ['PATCH', '/api/v1/export'],
      ['POST', '/api/reference/countries'],
    ] as const) {
      const res = await stack.app.inject({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD');
      expect(res.json()).toEqual({ ok: false, error: expect.stringMatching(/use GET/) });
    }
  });

  it('bad URLs and unknown methods answer in the {ok:false,error} shape', async () => {
    stack = await startTestStack();
    const badUrl = await get(stack, '/api/v1/hotspots%');
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.json()).toEqual({
      ok: false,
      error: expect.stringMatching(/URL could not be read/),
    });
    const unknown = await raw('FOO', '/api/status');
    expect(unknown.status).toBe(400);
    expect(JSON.parse(unknown.body)).toEqual({ ok: false, error: expect.any(String) });
  });

  it('404s do not echo the path back', async () => {
    stack = await startTestStack({ clientDir: clientDir() });
    const long = `/api/v1/${'x'.repeat(1000)}`;
    const api = await get(stack, long);
    expect(api.statusCode).toBe(404);
    expect(api.body.length).toBeLessThan(200);
    const file = await get(stack, `/assets/missing-${'y'.repeat(200)}.js`);
    expect(file.statusCode).toBe(404);
    expect(file.body.length).toBeLessThan(200);
  });

  it('an overlong country code is a JSON 400, not the static handler', async () => {
    stack = await startTestStack({ clientDir: clientDir() });
    const res = await get(stack, `/api/v1/country/${'A'.repeat(5000)}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ ok: false, error: expect.stringMatching(/iso must be/) });
  });

  it("a page path no file could have is the SPA or a plain 404, never the file handler's 403", async () => {
    const dir = clientDir();
    stack = await startTestStack({ clientDir: dir });
    // A segment longer than a file name may be (255 bytes): the SPA, which says the page is unknown.
    const long = await get(stack, `/watchlists/${'w'.repeat(300)}`);
    expect(long.statusCode).toBe(200);
    expect(long.headers['content-type']).toMatch(/text\/html/);
    const longFile = await get(stack, `/assets/${'z'.repeat(300)}.js`);
    expect(longFile.statusCode).toBe(404);
    expect(longFile.json()).toEqual({ ok: false, error: 'Not found' });
    // A dotfile is not served, and whether one exists is not said either: the same answer as
    // for one that does not.
    writeFileSync(join(dir, '.env'), 'UPSTREAM_KEY=planted');
    for (const path of ['/.env', '/.absent', '/assets/.hidden']) {
      const res = await get(stack, path);
      expect(res.statusCode, path).toBe(404);
      expect(res.json(), path).toEqual({ ok: false, error: 'Not found' });
    }
  });

  it('If-None-Match with a list or * gets a 304', async () => {
    stack = await startTestStack();
    const first = await get(stack, '/api/v1/hotspots');
    const etag = String(first.headers.etag);
    const ask = (value: string) =>
      get(stack, '/api/v1/hotspots', { headers: { 'if-none-match': value } });
    expect((await ask(`W/"old", ${etag}`)).statusCode).toBe(304);
    expect((await ask('*')).statusCode).toBe(304);
    expect((await ask(etag.replace(/^W\//, ''))).statusCode).toBe(304);
    expect((await ask('W/"old", W/"older"')).statusCode).toBe(200);
  });
});
