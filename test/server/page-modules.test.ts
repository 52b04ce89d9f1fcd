import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  MANIFEST_PATH,
  pageModuleLinks,
} from '../../src/server/services/rendering/page-modules.js';
import { get, startTestStack } from '../helpers/bff.js';
import type { TestClock } from '../helpers/clock.js';
import type { Stack } from '../helpers/stack.js';

/* Issue 32: a country page's lazily loaded modules start with its HTML. */
const COUNTRY = 'src/client/app/routes/country-route.tsx';
const INDEX_HTML =
  '<!doctype html><html lang="en"><head><title>Risk</title>' +
  '<script type="module" crossorigin src="/assets/index-A.js"></script>' +
  '<link rel="modulepreload" crossorigin href="/assets/vendor-V.js"></head>' +
  '<body><noscript id="no-script">Needs JavaScript.</noscript><div id="root"></div></body></html>';
/** Vite's manifest of a build like ours: the page's chunk imports the entry, the vendor and two more. */
const MANIFEST = {
  'index.html': { file: 'assets/index-A.js', imports: ['_vendor-V.js'] },
  '_vendor-V.js': { file: 'assets/vendor-V.js' },
  [COUNTRY]: {
    file: 'assets/country-route-C.js',
    imports: ['index.html', '_vendor-V.js', '_trend-frame-T.js', '_world-map-W.js'],
  },
  '_trend-frame-T.js': { file: 'assets/trend-frame-T.js', imports: ['_csv-S.js'] },
  '_world-map-W.js': {
    file: 'assets/world-map-W.js',
    imports: ['_csv-S.js', '_vendor-V.js'],
    css: ['assets/world-map-W.css'],
  },
  '_csv-S.js': { file: 'assets/csv-S.js' },
  'src/client/app/routes/compare-route.tsx': {
    file: 'assets/compare-route-P.js',
    imports: ['index.html', '_csv-S.js'],
  },
};

let clientDir: string;
let stack: (Stack & { clock: TestClock }) | null = null;
beforeAll(() => {
  clientDir = mkdtempSync(join(tmpdir(), 'grd-modules-'));
  writeFileSync(join(clientDir, 'index.html'), INDEX_HTML);
  mkdirSync(join(clientDir, '.vite'));
  writeFileSync(join(clientDir, MANIFEST_PATH), JSON.stringify(MANIFEST));
});
afterEach(async () => {
  await stack?.close();
  stack = null;
});
afterAll(() => rmSync(clientDir, { recursive: true, force: true }));

const modulesOf = (html: string) =>
  [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]);

describe('page modules', () => {
  it('links the page’s chunk and all it imports, once each, but not what index.html loads', () => {
    const links = pageModuleLinks(clientDir, COUNTRY, INDEX_HTML);
    expect(modulesOf(links)).toEqual([
      '/assets/country-route-C.js',
      '/assets/trend-frame-T.js',
      '/assets/csv-S.js',
      '/assets/world-map-W.js',
    ]);
    // A stylesheet is preloaded, not linked: a stylesheet in the head would hold the first paint.
    expect(links).toContain('<link rel="preload" as="style" href="/assets/world-map-W.css">');
    expect(links).not.toContain('rel="stylesheet"');
  });

  it('without a manifest or without the chunk there are no links (the SPA’s loader adds them)', () => {
    expect(pageModuleLinks(join(clientDir, 'nowhere'), COUNTRY, INDEX_HTML)).toBe('');
    expect(pageModuleLinks(clientDir, 'src/client/app/routes/gone.tsx', INDEX_HTML)).toBe('');
  });

  it('a country page’s HTML carries them in its head, a title-bar page its own; the overview’s none', async () => {
    stack = await startTestStack({ clientDir });
    const country = await get(stack, '/country/ukr');
    expect(country.statusCode).toBe(200);
    const head = country.body.slice(0, country.body.indexOf('</head>'));
    // index.html's own vendor link, then the page's four.
    expect(modulesOf(head)).toEqual([
      '/assets/vendor-V.js',
      ...modulesOf(pageModuleLinks(clientDir, COUNTRY, INDEX_HTML)),
    ]);
    expect(head).toContain('<link rel="preload" as="style" href="/assets/world-map-W.css">');
    expect(modulesOf((await get(stack, '/')).body)).toEqual(['/assets/vendor-V.js']);
    expect(modulesOf((await get(stack, '/compare?iso=UKR')).body)).toEqual([
      '/assets/vendor-V.js',
      '/assets/compare-route-P.js',
      '/assets/csv-S.js',
    ]);
  });
});
