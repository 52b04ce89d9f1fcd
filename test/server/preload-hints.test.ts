import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { get, startTestStack } from '../helpers/bff.js';
import type { TestClock } from '../helpers/clock.js';
import type { Stack } from '../helpers/stack.js';
import { tempDataDir } from '../helpers/test-config.js';

let stack: (Stack & { clock: TestClock }) | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

function clientDir(): string {
  const dir = tempDataDir('grd-client-');
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>GRD</title><div id="root"></div>');
  return dir;
}

/** The paths of a `Link` header's preload hints, in order. */
function preloads(header: unknown): string[] {
  if (typeof header !== 'string') return [];
  return header.split(', ').map((part) => {
    expect(part).toMatch(/^<[^>]+>; rel=preload; as=fetch; crossorigin$/);
    return part.slice(1, part.indexOf('>'));
  });
}

describe('preload hints for the data a page starts with (issue 11, point 11)', () => {
  it('the overview announces status, the batch and the hotspot list of its own filters', async () => {
    stack = await startTestStack({ clientDir: clientDir() });
    const plain = await get(stack, '/');
    expect(preloads(plain.headers.link)).toEqual([
      '/api/status',
      '/api/me',
      '/api/countries',
      '/api/v1/hotspots?limit=20',
    ]);
    // Filters as the SPA reads them: case folded, sorted, limit clamped; exactly its request.
    const filtered = await get(stack, '/?tier=HIGH,crit&limit=80&q=sud');
    expect(preloads(filtered.headers.link)).toEqual([
      '/api/status',
      '/api/me',
      '/api/countries',
      '/api/v1/hotspots?limit=50&tier=crit%2Chigh',
    ]);
  });

  it('a country page announces its country, other pages the status and who is signed in alone; files carry no hints', async () => {
    stack = await startTestStack({ clientDir: clientDir() });
    const country = await get(stack, '/country/UKR');
    expect(preloads(country.headers.link)).toEqual([
      '/api/status',
      '/api/me',
      '/api/v1/country/UKR',
    ]);
    // The status draws the banner and header links above every page, who is signed in the audit
    // link and user menu (issue 19.10: no shift; a signed-in phone's header gains a line).
    for (const url of ['/country/ukr', '/events', '/compare?iso=MLI,NER', '/brief?iso=MLI']) {
      expect(preloads((await get(stack, url)).headers.link), url).toEqual([
        '/api/status',
        '/api/me',
      ]);
    }
    for (const url of ['/api/status', '/favicon.svg']) {
      const res = await get(stack, url);
      expect(res.headers.link, url).toBeUndefined();
    }
  });

  it('every hinted path is one the BFF answers with 200', async () => {
    stack = await startTestStack({ clientDir: clientDir() });
    for (const page of ['/', '/?tier=crit', '/country/UKR']) {
      for (const path of preloads((await get(stack, page)).headers.link)) {
        expect((await get(stack, path)).statusCode, path).toBe(200);
      }
    }
  });
});
