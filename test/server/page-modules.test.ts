import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  firstFrameRoutes,
  type FirstFrameRouteOptions,
} from '../../src/server/routes/first-frame.js';
import {
  MANIFEST_PATH,
  pageModuleLinker,
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

const linksOf = pageModuleLinker(JSON.stringify(MANIFEST), INDEX_HTML);
const modulesOf = (html: string) =>
  [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]);

describe('page modules', () => {
  it('links the page’s chunk and all it imports, once each, but not what index.html loads', () => {
    const links = linksOf(COUNTRY);
    expect(modulesOf(links)).toEqual([
      '/assets/country-route-C.js',
      '/assets/trend-frame-T.js',
      '/assets/csv-S.js',
      '/assets/world-map-W.js',
    ]);
    // A stylesheet is preloaded, not linked: a stylesheet in the head would hold the first paint.
    expect(links).toContain(
      '<link rel="preload" as="style" crossorigin href="/assets/world-map-W.css">',
    );
    expect(links).not.toContain('rel="stylesheet"');
  });

  it('without a manifest or without the chunk there are no links (the SPA’s loader adds them)', () => {
    expect(pageModuleLinker(null, INDEX_HTML)(COUNTRY)).toBe('');
    expect(linksOf('src/client/app/routes/gone.tsx')).toBe('');
  });

  it('parses the manifest once, however many pages ask for their links', () => {
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const links = pageModuleLinker(JSON.stringify(MANIFEST), INDEX_HTML);
      for (const source of [COUNTRY, COUNTRY, 'src/client/app/routes/compare-route.tsx'])
        expect(links(source)).not.toBe('');
      expect(parse).toHaveBeenCalledTimes(1);
    } finally {
      parse.mockRestore();
    }
  });

  it('the route reads the manifest once for the country page and all title-bar pages', async () => {
    const reads = new Map<string, number>();
    const app = Fastify();
    const opts = {
      clientDir,
      status: () => ({}),
      now: () => 0,
      explanations: null,
      readClientFile: (file: string) => {
        reads.set(file, (reads.get(file) ?? 0) + 1);
        return readFileSync(file, 'utf8');
      },
    } as unknown as FirstFrameRouteOptions;
    await app.register(firstFrameRoutes, opts);
    try {
      await app.ready();
      expect(reads).toEqual(
        new Map([
          [join(clientDir, 'index.html'), 1],
          [join(clientDir, MANIFEST_PATH), 1],
        ]),
      );
      // What was read once is what each page links.
      const compare = await app.inject({ url: '/compare' });
      expect(modulesOf(compare.body)).toEqual([
        '/assets/vendor-V.js',
        '/assets/compare-route-P.js',
        '/assets/csv-S.js',
      ]);
    } finally {
      await app.close();
    }
  });

  it('a country page’s HTML carries them in its head, a title-bar page its own; the overview’s none', async () => {
    stack = await startTestStack({ clientDir });
    const country = await get(stack, '/country/ukr');
    expect(country.statusCode).toBe(200);
    const head = country.body.slice(0, country.body.indexOf('</head>'));
    // index.html's own vendor link, then the page's four.
    expect(modulesOf(head)).toEqual(['/assets/vendor-V.js', ...modulesOf(linksOf(COUNTRY))]);
    expect(head).toContain(
      '<link rel="preload" as="style" crossorigin href="/assets/world-map-W.css">',
    );
    expect(modulesOf((await get(stack, '/')).body)).toEqual(['/assets/vendor-V.js']);
    expect(modulesOf((await get(stack, '/compare?iso=UKR')).body)).toEqual([
      '/assets/vendor-V.js',
      '/assets/compare-route-P.js',
      '/assets/csv-S.js',
    ]);
  });
});
