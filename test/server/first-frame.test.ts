import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { StatusResponse } from '../../src/shared/bff-api.js';
import type { ChangesResponse, CountryChange } from '../../src/shared/history-api.js';
import { firstFrameRoutes } from '../../src/server/routes/first-frame.js';
import type { FirstFrameRouteOptions } from '../../src/server/routes/first-frame.js';
import {
  countryHead,
  countryHeadOf,
  countryRest,
} from '../../src/server/services/rendering/country-frame.js';
import {
  FIRST_FRAME_BOOT,
  frameTemplate,
  overviewHead,
  overviewRest,
  scriptsAfterFirstPaint,
} from '../../src/server/services/rendering/first-frame.js';
import { frameShell } from '../../src/server/services/rendering/frame-shell.js';
import { frameWords } from '../../src/server/services/rendering/frame-words.js';
import { statusLines } from '../../src/shared/status-lines.js';
import { get, startTestStack } from '../helpers/bff.js';
import type { TestClock } from '../helpers/clock.js';
import type { Stack } from '../helpers/stack.js';

/* Issue 32, point 1: the pages' first frame, rendered by the server once per batch. */
const PLAIN_NO_SCRIPT = 'This page needs JavaScript.';
let clientDir: string;
let stack: (Stack & { clock: TestClock }) | null = null;
beforeAll(() => {
  clientDir = mkdtempSync(join(tmpdir(), 'grd-frame-'));
  writeFileSync(
    join(clientDir, 'index.html'),
    '<!doctype html><html lang="en"><title>Risk</title><body>' +
      `<noscript id="no-script">${PLAIN_NO_SCRIPT}</noscript><div id="root"></div></body></html>`,
  );
});
afterEach(async () => {
  await stack?.close();
  stack = null;
});
afterAll(() => rmSync(clientDir, { recursive: true, force: true }));

/**
 * Waits until `path` comes with its frame. A cold stack's first page may be the plain one: the
 * frame waits at most 300 ms for the data, and a busy machine's first upstream round trip took
 * longer (a loaded run); that late answer still fills the cache for the next page.
 */
async function untilFramed(path: string, frame: RegExp): Promise<void> {
  await expect.poll(async () => (await get(stack!, path)).body, { timeout: 30_000 }).toMatch(frame);
}

describe('first frame', () => {
  it('the overview arrives with the index and 20 hotspots, the same bytes for the batch', async () => {
    stack = await startTestStack({ clientDir });
    await untilFramed('/', /first-frame/);
    const first = await get(stack, '/');
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toMatch(/^text\/html/);
    expect(first.body).toMatch(/data-testid="frame-index">\d+\.\d\d</);
    expect(first.body.match(/<tr><td class="num">/g)).toHaveLength(20);
    expect(first.body).toContain('<div id="root" class="behind-first-frame"></div>');
    const again = await get(stack, '/');
    expect(again.body).toBe(first.body);
  });

  it('a country page has its frame; an unknown or malformed code gets the plain page', async () => {
    stack = await startTestStack({ clientDir });
    await untilFramed('/country/ukr', /first-frame/);
    await untilFramed('/', /first-frame/);
    const ukr = await get(stack, '/country/ukr');
    expect(ukr.body).toMatch(
      /<h1 id="frame-country-heading">Ukraine <span class="iso">UKR<\/span><\/h1>/,
    );
    // The country before what one can do with it, as the SPA has it: the back link, the header,
    // then compare, follow and a past batch.
    const order = ['class="back-link"', 'id="frame-country-heading"', 'class="country-actions'];
    const at = order.map((mark) => ukr.body.indexOf(mark));
    expect(Math.min(...at)).toBeGreaterThan(-1);
    expect(at).toEqual([...at].sort((a, b) => a - b));
    for (const path of [
      '/country/XXQ',
      '/country/%3Cscript%3E',
      // Another view than the latest batch's provider index: its numbers are not the frame's.
      '/country/UKR?as_of=2026-11-20T10:00:00Z',
      '/country/UKR?index=team',
      '/?as_of=2026-11-20T10:00:00Z',
      '/?index=team',
    ]) {
      const plain = await get(stack, path);
      expect(plain.statusCode).toBe(200);
      expect(plain.body).toContain('<div id="root"></div>');
      expect(plain.body).not.toContain('first-frame');
    }
  });

  it('the other pages come with the title bar alone; an unknown path is the plain page', async () => {
    stack = await startTestStack({ clientDir });
    for (const path of ['/alerts', '/watchlists/abc', '/compare?iso=MLI,NER', '/admin/audit']) {
      const page = await get(stack, path);
      expect(page.statusCode, path).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      // No data of a page: what the SPA draws below the bar is its own.
      expect(page.body, path).toMatch(
        /<div id="first-frame" class="first-frame"><header class="app-bar">.*<\/header><noscript [^]+<\/noscript><div role="main"><\/div><\/div><div id="root" class="behind-first-frame"><\/div>/,
      );
    }
    for (const path of ['/nowhere', '/alerts/extra']) {
      expect((await get(stack, path)).body, path).toContain(
        `<noscript id="no-script">${PLAIN_NO_SCRIPT}</noscript><div id="root"></div>`,
      );
    }
    // A page's own part of the path is never written into the page, however it is spelled.
    for (const path of [
      '/watchlists/%3Cscript%3Ealert(1)%3C%2Fscript%3E',
      `/sites/${'9'.repeat(250)}`,
    ]) {
      const page = await get(stack, path);
      expect(page.statusCode, path.slice(0, 40)).toBe(200);
      expect(page.body).not.toMatch(/<script>|alert\(1\)|9{100}/);
    }
  });

  it('a country page does not wait on a slow store: the provider’s change until ours is known', async () => {
    const app = Fastify();
    const asked: string[] = [];
    const detail = {
      as_of: '2026-11-28T10:00:00Z',
      country: { iso: 'UKR', name: 'Ukraine', risk: 61.5, tier: 'high', delta_headline: 1.25 },
    };
    const answers = { country: async () => served(detail) };
    // Answers the country only: anything else the route asked for would fail the test.
    const data = new Proxy(answers, {
      get: (target, key) => {
        if (key in target) return target[key as keyof typeof target];
        throw new Error(`the fake answers a country only, not ${String(key)}`);
      },
    });
    await app.register(
      firstFrameRoutes,
      routeOptions({
        data,
        status: { history: true, as_of: detail.as_of },
        // The store never answers (a cold, busy store).
        explanations: {
          explain: (iso: string) => {
            asked.push(iso);
            return new Promise<never>(() => undefined);
          },
        },
      }),
    );
    try {
      const page = await app.inject({ url: '/country/UKR' });
      expect(page.body).toContain('id="frame-country-heading"');
      expect(page.body).toContain('Up 1.25 in risk score (provider');
      expect(asked).toEqual(['UKR']);
    } finally {
      await app.close();
    }
  });

  it('parses a country’s answer when its frame is made, not for each page of the batch', async () => {
    const app = Fastify();
    let parses = 0;
    let batch = 1;
    let now = Date.parse('2026-11-28T12:00:00Z');
    // The provider's answer for this batch, counting how often its text is read to be parsed.
    const answer = () => {
      const text = JSON.stringify({
        as_of: '2026-11-28T10:00:00Z',
        country: { iso: 'UKR', name: 'Ukraine', risk: 60 + batch, tier: 'high', events: [] },
      });
      const body = { toString: () => (parses++, text) } as unknown as Buffer;
      return { ...served({}), body, headers: { etag: `"batch-${batch}"` } };
    };
    await app.register(
      firstFrameRoutes,
      routeOptions({ data: { country: async () => answer() }, now: () => now }),
    );
    const risk = (page: string) => /class="country-risk">([^<]+)</.exec(page)?.[1];
    const made = (page: string) => /<time datetime="2026-11-28T10:00:00Z">([^<]+)</.exec(page)?.[1];
    try {
      const first = (await app.inject({ url: '/country/UKR' })).body;
      now += 3_600_000;
      const again = (await app.inject({ url: '/country/UKR' })).body;
      expect(parses).toBe(1);
      expect(risk(first)).toBe('61.00');
      // The header is still made per request, from what was kept of the answer.
      expect([made(first), made(again)]).toEqual(['10:00 UTC · 2 h ago', '10:00 UTC · 3 h ago']);
      expect(again.replace(made(again)!, '')).toBe(first.replace(made(first)!, ''));
      batch = 2;
      expect(risk((await app.inject({ url: '/country/UKR' })).body)).toBe('62.00');
      expect(parses).toBe(2);
    } finally {
      await app.close();
    }
  });

  it('a stale country answer frames its own country, never a frame kept for another', async () => {
    const app = Fastify();
    // The upstream failing: the cache serves the last good answers, stale, which keyOf does
    // not key (no batch to be sure of).
    const stale = (iso: string, name: string) => ({
      ...served({ as_of: '2026-11-28T10:00:00Z', country: { iso, name, risk: 50, events: [] } }),
      outcome: 'stale',
    });
    const names: Record<string, string> = { UKR: 'Ukraine', MLI: 'Mali' };
    await app.register(
      firstFrameRoutes,
      routeOptions({
        data: { country: async (iso: string) => stale(iso, names[iso] ?? iso) },
        status: { health: 'down' },
      }),
    );
    const heading = (page: string) =>
      /id="frame-country-heading"[^>]*>([\s\S]*?)<\/h1>/.exec(page)?.[1] ?? '';
    try {
      expect(heading((await app.inject({ url: '/country/UKR' })).body)).toContain('Ukraine');
      const mali = heading((await app.inject({ url: '/country/MLI' })).body);
      expect(mali).toContain('Mali');
      expect(mali).not.toContain('Ukraine');
    } finally {
      await app.close();
    }
  });

  it('the overview’s strip says the moves recorded here, as the SPA will, when the store has them', async () => {
    const page = await overviewWith(async () => recordedMoves());
    const strip = stripOf(page);
    expect(strip).toContain('Moved since the previous recorded batch');
    expect(strip).not.toContain('provider');
    // The SPA's lines: the two biggest rises and falls, then the tier moves (ups first).
    expect(namesIn(strip)).toEqual(['Sudan', 'Mali', 'Chad', 'Niger', 'Haiti', 'Peru']);
    expect(strip).toContain('+8.05');
    expect(strip).toContain('−4.88');
    expect(strip).toMatch(
      /Haiti<\/a> <span class="tier-badge tier-mod"[^>]*>Moderate<\/span> <span aria-hidden="true">→<\/span><span class="visually-hidden">to<\/span> <span class="tier-badge tier-high"[^>]*>High<\/span>/,
    );
    expect(strip).toContain('<span class="muted"> and 1 more</span>');
    expect(strip).toContain('<a class="strip-more" href="#what-changed">');
  });

  it('escapes the recorded strip: a stored name, code and tier are text, never markup', async () => {
    const evil = '<img src=x onerror=alert(1)>';
    const stored = recordedMoves();
    const byIso = (iso: string) => stored.countries.find((c) => c.iso === iso);
    // Sudan leads the rises (a code no name is known for shows the stored name); Haiti is a tier
    // move, whose badges name both tiers.
    Object.assign(byIso('SDN')!, { iso: '"><b', name: evil });
    Object.assign(byIso('HTI')!, { then: { risk: 50, tier: evil } });
    const strip = stripOf(await overviewWith(async () => stored));
    expect(strip).toContain('Moved since the previous recorded batch');
    expect(strip).not.toContain('<img');
    expect(strip).not.toContain('<b');
    expect(strip).toContain('href="/country/&quot;&gt;&lt;"');
    // Both, as text: the name and the tier.
    expect(strip.split('&lt;img src=x onerror=alert(1)&gt;')).toHaveLength(3);
  });

  it('keeps the provider’s strip for moves of another batch, across a method change, or late', async () => {
    const provider = 'Moved most since yesterday (the provider’s figures)';
    const otherBatch = recordedMoves({ to_batch: { id: 'b-2', as_of: '2026-11-28T03:00:00Z' } });
    expect(stripOf(await overviewWith(async () => otherBatch))).toContain(provider);
    const acrossMethod = recordedMoves({
      method_changes: [
        { as_of: '2026-11-28T10:00:00Z', from: 'm-1', to: 'm-2', comparable: false },
      ],
    });
    expect(stripOf(await overviewWith(async () => acrossMethod))).toContain(provider);
    const noPrevious = recordedMoves({ from_batch: null });
    expect(stripOf(await overviewWith(async () => noPrevious))).toContain(provider);
    // A store that does not answer in time: the provider's figures meanwhile, kept for the
    // batch no longer than the store takes; the next page says ours.
    let asked = 0;
    const [late, next] = await overviewPages(2, async () =>
      (asked += 1) === 1 ? new Promise<never>(() => undefined) : JSON.stringify(recordedMoves()),
    );
    expect(stripOf(late ?? '')).toContain(provider);
    expect(stripOf(next ?? '')).toContain('Moved since the previous recorded batch');
  });

  it('parses the store’s recorded moves once per answer, not for each page', async () => {
    // The store keeps one JSON string per batch; a new batch is a new string.
    const kept = JSON.stringify(recordedMoves());
    const next = JSON.stringify(
      recordedMoves({ to_batch: { id: 'b-2', as_of: '2026-11-28T22:00:00Z' } }),
    );
    let asked = 0;
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const pages = await overviewPages(4, async () => ((asked += 1) <= 3 ? kept : next));
      const parsesOf = (json: string) => parse.mock.calls.filter(([text]) => text === json);
      expect(parsesOf(kept)).toHaveLength(1);
      expect(parsesOf(next)).toHaveLength(1);
      expect(pages.slice(0, 3).map((page) => namesIn(stripOf(page))[0])).toEqual([
        'Sudan',
        'Sudan',
        'Sudan',
      ]);
      // The new answer is read, not the kept one: of another batch, so the provider's strip.
      expect(stripOf(pages[3] ?? '')).toContain('the provider’s figures');
    } finally {
      parse.mockRestore();
    }
  });

  it('keeps of a country’s answer what its header reads: the same header, without the events', () => {
    const words = frameWords('en');
    const now = Date.parse('2026-11-28T12:00:00Z');
    const country = {
      iso: 'UKR',
      name: 'Ukraine (formal)',
      risk: 61.5,
      tier: 'high',
      delta_headline: 1.25,
      delta_active: -0.5,
      confidence: 0.8,
      profile: 'conflict_zone',
      source_count: 12,
      static: 30,
      active: 70,
      threat_vectors: ['armed_conflict'],
      categories: { conflict: { score: 80 } },
      events: [{ ts: '2026-11-28T08:00:00Z', headline: 'Shelling' }],
    };
    for (const answer of [
      { as_of: '2026-11-28T10:00:00Z', country },
      { as_of: 'x', ...country },
    ]) {
      const kept = countryHeadOf(answer);
      expect(JSON.stringify(kept)).not.toMatch(/Shelling|"categories"/);
      for (const facts of [
        { history: true, recorded: 2 },
        { history: false, recorded: null },
      ])
        expect(countryHead(words, kept, facts, now)).toBe(countryHead(words, answer, facts, now));
    }
  });

  it('says the language the SPA will show: ?lang= over Accept-Language, unknown -> en (issue 34)', async () => {
    stack = await startTestStack({ clientDir });
    const arabic = await get(stack, '/', {
      headers: { 'accept-language': 'de, ar;q=0.9, fr;q=0.8' },
    });
    expect(arabic.body).toContain('<html lang="ar" dir="rtl">');
    expect(arabic.headers.vary).toMatch(/accept-language/i);
    const french = await get(stack, '/country/UKR?lang=fr', {
      headers: { 'accept-language': 'ar' },
    });
    expect(french.body).toContain('<html lang="fr" dir="ltr">');
    const unknown = await get(stack, '/?lang=zz', { headers: { 'accept-language': 'ar' } });
    expect(unknown.body).toContain('<html lang="en">');
  });

  it('escapes upstream text: names, tiers, headlines', () => {
    const evil = '<img src=x onerror=alert(1)>';
    const words = frameWords('en');
    const html =
      overviewHead(
        words,
        { as_of: evil, methodology_version: evil, global: { ggri: 50, tier: evil } },
        { as_of: evil, next_batch_due_at: evil, last_checked_at: evil, next_check_at: evil },
        Date.now(),
        null,
      ) +
      overviewRest(words, {
        hotspots: [
          { iso: '"><b', name: evil, risk: 80, tier: evil, lat: 1, lng: 2, delta_headline: 3 },
        ],
      }) +
      countryHead(
        words,
        {
          as_of: '2026-11-28T10:00:00Z',
          country: { iso: 'UKR', name: evil, profile: evil, threat_vectors: [evil], tier: evil },
        },
        { history: true, recorded: 1 },
        Date.now(),
      ) +
      countryRest(words, {
        country: { iso: 'UKR', name: evil, events: [{ ts: evil, headline: evil }] },
      });
    expect(html).not.toContain('<img');
    expect(html).not.toContain('/country/"');
    expect(html).toContain('/country/&quot;&gt;&lt;"');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('puts upstream text in the page as it is: "$`" or "$&" insert nothing of index.html', () => {
    const index =
      '<html><head><script src="/app.js"></script></head><body>' +
      '<noscript id="no-script">Plain.</noscript><div id="root"></div></body></html>';
    const page = frameTemplate(index)('<header></header>', "<p>a $` b $& c $' d $$ e</p>", '$` $&');
    expect(page).toContain("<p>a $` b $& c $' d $$ e</p>");
    expect(page).toContain('<noscript id="no-script" class="no-script">$` $&</noscript>');
    expect(page).not.toContain('Plain.');
    expect(page.match(/<script/g)).toHaveLength(1);
  });

  it("moves a framed page's scripts into its boot script's data; a shell page keeps them", () => {
    const index =
      '<html><head>\n    <script type="module" crossorigin src="/assets/index-A1.js"></script>\n' +
      '    <link rel="modulepreload" crossorigin href="/assets/runtime-B2.js">\n' +
      '    <link rel="modulepreload" crossorigin href="/assets/vendor-C3.js">\n' +
      '    <link rel="stylesheet" crossorigin href="/assets/index-D4.css">\n  </head><body>' +
      '<div id="root"></div></body></html>';
    const framed = frameTemplate(index, { scriptsAfterPaint: true })(
      '<header></header>',
      '',
      'Own.',
    );
    const head = framed.slice(0, framed.indexOf('</head>'));
    expect(head).not.toMatch(/modulepreload|type="module"/);
    expect(head).toContain('<link rel="stylesheet" crossorigin href="/assets/index-D4.css">');
    expect(head).toContain(
      `<script src="${FIRST_FRAME_BOOT}" data-entry="/assets/index-A1.js"` +
        ' data-modules="/assets/runtime-B2.js /assets/vendor-C3.js" defer></script>',
    );
    expect(framed.match(/<script/g)).toHaveLength(1);
    const shell = frameTemplate(index)('<header></header>', '', 'Own.');
    expect(shell.slice(0, shell.indexOf('</head>'))).toBe(index.slice(0, index.indexOf('</head>')));
    // Without Vite's entry script (a test's index.html): as it was.
    expect(scriptsAfterFirstPaint('<head><script src="/app.js"></script></head>')).toBe(
      '<head><script src="/app.js"></script></head>',
    );
    // The boot script is part of the build (public/), so the offline worker keeps it too.
    expect(existsSync(join(import.meta.dirname, '../../public', FIRST_FRAME_BOOT))).toBe(true);
  });

  it('makes index.html ready once: a page is framed by joining strings, never a search of it', () => {
    const index =
      '<html><head><title>$& $`</title></head><body><noscript id="no-script" class="x">\nPlain.' +
      '</noscript ><div id="root"></div><p>$\'</p></body></html>';
    const framed = frameTemplate(index);
    const searches = (['replace', 'includes', 'indexOf', 'split', 'match', 'search'] as const).map(
      (method) => vi.spyOn(String.prototype, method),
    );
    let page: string;
    let searched: unknown[];
    try {
      page = framed('<header></header>', '<p>$&</p>', 'Own line.');
      // Which strings were searched (a restored spy forgets its calls).
      searched = searches.flatMap((search) => search.mock.contexts);
    } finally {
      for (const search of searches) search.mockRestore();
    }
    expect(searched).not.toContain(index);
    expect(page).toBe(
      '<html><head><title>$& $`</title></head><body><div id="first-frame" class="first-frame">' +
        '<header></header><noscript id="no-script" class="no-script">Own line.</noscript>' +
        '<div role="main"><p>$&</p></div></div><div id="root" class="behind-first-frame"></div>' +
        "<p>$'</p></body></html>",
    );
    // Nothing to frame without the SPA's root: index.html as it is, its line kept.
    const rootless = index.replace('<div id="root"></div>', '<div id="app"></div>');
    expect(frameTemplate(rootless)('<header></header>', '<p></p>', 'Own line.')).toBe(rootless);
    // A root only inside the line taken out: index.html without the line, as before.
    const hidden = '<body><noscript id="no-script"><div id="root"></div></noscript></body>';
    expect(frameTemplate(hidden)('<header></header>', '<p></p>', 'Own line.')).toBe(
      '<body></body>',
    );
  });

  it('a framed page goes out compressed when the client asks, the same page unpacked', async () => {
    stack = await startTestStack({ clientDir });
    await untilFramed('/', /first-frame/);
    for (const [path, encoding, unpack] of [
      ['/', 'br', brotliDecompressSync],
      ['/country/UKR', 'gzip', gunzipSync],
    ] as const) {
      const plain = await get(stack, path);
      const packed = await get(stack, path, { headers: { 'accept-encoding': encoding } });
      expect(packed.headers['content-encoding'], path).toBe(encoding);
      expect(packed.headers.vary, path).toMatch(/accept-encoding/i);
      expect(packed.rawPayload.length, path).toBeLessThan(plain.rawPayload.length / 2);
      expect(unpack(packed.rawPayload).toString('utf8'), path).toBe(plain.body);
    }
  });

  it('tells a reader without JavaScript what the page is, in its language', async () => {
    // The build's own index.html has the line the frame replaces.
    const built = readFileSync(join(import.meta.dirname, '../../index.html'), 'utf8');
    const replaced = frameTemplate(built)('<header></header>', '', 'Own line.');
    expect(replaced).toContain(
      '</header><noscript id="no-script" class="no-script">Own line.</noscript><div role="main">',
    );
    expect(replaced.match(/<noscript id="no-script"/g)).toHaveLength(1);

    stack = await startTestStack({ clientDir });
    await untilFramed('/?lang=fr', /first-frame/);
    const framed = (await get(stack, '/?lang=fr')).body;
    expect(framed).toContain('cette page montre le dernier lot sous forme de texte');
    expect(framed).not.toContain(PLAIN_NO_SCRIPT);
    // A page the SPA draws below the title bar is not readable without it, and says so.
    const shell = (await get(stack, '/alerts?lang=es')).body;
    expect(shell).toContain(
      '<noscript id="no-script" class="no-script">Esta página necesita JavaScript.',
    );
    // The export's path is a link, in any language.
    expect(shell).toContain(
      'en CSV en <a href="/api/v1/export?format=csv">/api/v1/export?format=csv</a>.</noscript>',
    );
    expect(shell).not.toContain('el último lote como texto');
  });

  it('the title bar and the first screen are the SPA’s, in the page’s language', async () => {
    stack = await startTestStack({ clientDir });
    await untilFramed('/?lang=fr', /first-frame/);
    const french = (await get(stack, '/?lang=fr')).body;
    expect(french).toContain('<header class="app-bar"><a href="/" class="brand">');
    expect(french).toContain(
      '<h2 id="frame-index-heading" class="global-index-label">Indice de risque mondial</h2>',
    );
    expect(french).toMatch(
      /<span class="global-index-number" data-testid="frame-index">\d+,\d\d<\/span>/,
    );
    expect(french).toContain('Plus fortes variations depuis hier');
    const english = (await get(stack, '/')).body;
    expect(english).toContain(
      '<h2 id="frame-index-heading" class="global-index-label">Global risk index</h2>',
    );
    expect(english).toContain('<h2 id="frame-map-heading">World map</h2>');
  });

  it('says an overdue batch or an outage under the title bar, as the SPA does, escaped', () => {
    const now = Date.parse('2026-11-30T12:00:00Z');
    const status = (upstream: object) =>
      ({
        as_of: '2026-11-28T10:00:00Z',
        upstream,
        quota: { blocked_until: '2026-11-30T12:40:00Z' },
      }) as unknown as StatusResponse;
    const english = frameWords('en');
    const overdue = statusLines(status({ health: 'ok' }), now, english.status);
    expect(overdue).toEqual([
      'The 10:00 UTC batch is overdue (due 2 h ago); the data shown is from 28 Nov 2026, ' +
        '10:00 UTC (2 d ago).',
      'The hourly request quota of the data service is used up until 12:40 UTC (in 40 min). ' +
        'Pages already loaded stay available; new countries may not load until then.',
    ]);
    // The BFF's own sentence for a failure a person can act on, which may quote the provider.
    const down = {
      health: 'down',
      message: '<b>Key</b> & co',
      last_error: { class: 'key_rejected' },
    };
    const outage = statusLines(status(down), now, english.status);
    const shell = frameShell(english, {
      demo: false,
      history: false,
      role: 'viewer',
      person: null,
      banner: { health: 'down', lines: outage },
    });
    expect(shell).toContain(
      '</header><div class="status-banner status-down" role="status"><p>&lt;b&gt;Key&lt;/b&gt; ' +
        '&amp; co Showing the last data received, from 28 Nov 2026, 10:00 UTC (2 d ago). The ' +
        '10:00 UTC batch is overdue.</p><p>The hourly request quota',
    );
    expect(frameShell(english, { ...FACTS, banner: ALL_WELL })).not.toContain('status-banner');
    // In the page's language, its dates written as the screens write them.
    const french = statusLines(status({ health: 'ok' }), now, frameWords('fr').status);
    expect(french[0]).toContain('28 nov. 2026, 10:00 UTC');
  });

  it('the banner and the overview’s header say the overdue batch worked out once for the page', () => {
    const now = Date.parse('2026-11-30T12:00:00Z');
    const words = frameWords('en');
    const times = (asOf: string) =>
      ({
        as_of: asOf,
        next_batch_due_at: '2026-11-30T15:00:00Z',
        last_checked_at: null,
        next_check_at: null,
        upstream: { health: 'ok' },
        quota: { blocked_until: null },
      }) as unknown as StatusResponse;
    const current = times('2026-11-30T10:00:00Z');
    const late = times('2026-11-28T10:00:00Z');
    const given = '2026-11-30T10:00:00.000Z';
    // What they are given is what they say, not what they would work out again.
    expect(statusLines(current, now, words.status, given)).toEqual([
      expect.stringContaining('The 10:00 UTC batch is overdue (due 2 h ago)'),
    ]);
    expect(statusLines(late, now, words.status, null)).toEqual([]);
    const header = (status: StatusResponse, overdue: string | null) =>
      overviewHead(words, { as_of: status.as_of, global: {} }, status, now, overdue);
    expect(header(current, given)).toContain(
      `<time datetime="${given}" class="overdue">10:00 UTC · overdue</time>`,
    );
    expect(header(late, null)).not.toContain('class="overdue"');
    // Without one given, the SPA's banner works it out from the status.
    expect(statusLines(late, now, words.status)).toEqual([
      expect.stringContaining('The 10:00 UTC batch is overdue'),
    ]);
  });

  it('the title bar is the reader’s: the audit link for admins, who is signed in, escaped', () => {
    const words = frameWords('en');
    const open = frameShell(words, {
      demo: true,
      history: true,
      role: 'admin',
      person: null,
      banner: ALL_WELL,
    });
    expect(open).toContain('<a href="/admin/audit">Audit log</a>');
    expect(open).toContain('<a class="unread-link" href="/alerts">');
    expect(open).toContain('class="demo-badge"');
    expect(open).not.toContain('user-menu');
    const viewer = frameShell(words, {
      demo: false,
      history: false,
      role: 'viewer',
      person: { name: '<b>Ann</b>', role: 'viewer' },
      banner: ALL_WELL,
    });
    expect(viewer).not.toContain('/admin/audit');
    expect(viewer).not.toContain('app-nav');
    expect(viewer).not.toContain('demo-badge');
    expect(viewer).toContain('<span class="user-name">&lt;b&gt;Ann&lt;/b&gt;</span>');
  });
});

const ALL_WELL = { health: 'ok', lines: [] };
const FACTS = { demo: false, history: false, role: 'viewer', person: null };

/**
 * The route's options around a fake of the answers it reads (`data`): a demo server's status
 * (no history, the upstream well unless said), 28 Nov 12:00 UTC, no store to explain moves.
 */
function routeOptions({
  data,
  status = {},
  now = () => Date.parse('2026-11-28T12:00:00Z'),
  explanations = null,
}: {
  data: object;
  status?: { history?: boolean; as_of?: string; health?: string };
  now?: () => number;
  explanations?: FirstFrameRouteOptions['explanations'];
}): FirstFrameRouteOptions {
  const { history = false, as_of, health = 'ok' } = status;
  return {
    clientDir,
    data,
    guardFor: () => ({}),
    metrics: {},
    status: () =>
      ({
        mode: 'demo',
        history,
        ...(as_of === undefined ? {} : { as_of }),
        upstream: { health },
        quota: { blocked_until: null },
      }) as unknown as StatusResponse,
    now,
    explanations,
  } as unknown as FirstFrameRouteOptions;
}

/** The overview's page from a route whose store answers the strip's question with `moves`. */
async function overviewWith(moves: () => Promise<ChangesResponse>): Promise<string> {
  return (await overviewPages(1, async () => JSON.stringify(await moves())))[0] ?? '';
}

/**
 * `count` overview pages, one after another, from one route (its frames kept between them),
 * whose store answers the strip's question with the JSON `movesJson` gives.
 */
async function overviewPages(count: number, movesJson: () => Promise<string>): Promise<string[]> {
  const app = Fastify();
  const hotspot = (iso: string, name: string, delta: number) => ({
    iso,
    name,
    risk: 70,
    tier: 'high',
    lat: 10,
    lng: 10,
    delta_headline: delta,
  });
  const data = {
    countries: async () =>
      served({ as_of: '2026-11-28T10:00:00Z', methodology_version: 'm-1', global: {} }),
    hotspots: async () =>
      served({
        as_of: '2026-11-28T10:00:00Z',
        hotspots: [hotspot('SDN', 'Sudan', 8.05), hotspot('ISR', 'Israel', -1.23)],
      }),
  };
  await app.register(firstFrameRoutes, { ...routeOptions({ data }), recordedMovesJson: movesJson });
  try {
    const pages: string[] = [];
    for (let i = 0; i < count; i += 1) pages.push((await app.inject({ url: '/' })).body);
    return pages;
  } finally {
    await app.close();
  }
}

/** `/api/changes?since=previous` between the batches of 27 Nov 22:00 and 28 Nov 10:00. */
function recordedMoves(overrides: Partial<ChangesResponse> = {}): ChangesResponse {
  const change = (
    iso: string,
    name: string,
    delta: number,
    then = 'mod',
    now = then,
  ): CountryChange =>
    ({
      iso,
      name,
      delta_risk: delta,
      delta_active: 0,
      then: { risk: 50, tier: then },
      now: { risk: 50 + delta, tier: now },
      tier_change: then === now ? null : then === 'mod' ? 'up' : 'down',
      top_categories: [],
    }) as unknown as CountryChange;
  return {
    ok: true,
    since: 'previous',
    from_batch: { id: 'b-1', as_of: '2026-11-27T22:00:00Z' },
    to_batch: { id: 'b-2', as_of: '2026-11-28T10:00:00Z' },
    method_changes: [],
    countries: [
      change('MLI', 'Mali', 3.2),
      change('SDN', 'Sudan', 8.05),
      change('NER', 'Niger', -2.5),
      change('TCD', 'Chad', -4.88),
      change('HTI', 'Haiti', 1.5, 'mod', 'high'),
      change('PER', 'Peru', 0.5, 'mod', 'high'),
      change('UKR', 'Ukraine', -0.2, 'crit', 'high'),
    ],
    entered: [],
    left: [],
    ...overrides,
  } as unknown as ChangesResponse;
}

/** The frame's strip of movers, from its section's start to its end. */
const stripOf = (page: string): string =>
  /<section class="changes-strip first-frame-movers">[\s\S]*?<\/section>/.exec(page)?.[0] ?? '';
const namesIn = (strip: string): string[] =>
  [...strip.matchAll(/<a href="\/country\/[A-Z]{3}">([^<]+)<\/a>/g)].map((m) => m[1] ?? '');

/** A cached upstream answer, as the BFF's cache hands it to a route. */
function served(body: object) {
  return {
    status: 200,
    contentType: 'application/json',
    body: Buffer.from(JSON.stringify(body)),
    headers: { etag: '"batch-1"' },
    outcome: 'hit',
  };
}
