import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { TIER_COLOURS } from '../../src/shared/tiers.js';
import { screenshotPath, waitForMap, waitForPanels } from './browser.js';
import { browserSuite } from './suite.js';

// Issue 11: what a new user tripped over, checked in Debian's Chromium against the built app.
const suite = browserSuite();

const PHONE = { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true };
const DESKTOP = { viewport: { width: 1440, height: 900 } };

interface MarkerCentre {
  iso: string;
  x: number;
  y: number;
}

/** Each marker's ISO code (from its accessible label's country) and the centre of its box. */
async function markerCentres(page: Page): Promise<MarkerCentre[]> {
  return page.$$eval('.world-map .hotspot-marker', (markers) =>
    markers.map((marker) => {
      const box = marker.getBoundingClientRect();
      return {
        iso: (marker as HTMLElement).dataset.iso ?? '',
        x: box.left + box.width / 2,
        y: box.top + box.height / 2,
      };
    }),
  );
}

describe('map markers (issue 11, point 1)', () => {
  for (const [width, options] of [
    ['1440 px', DESKTOP],
    ['375 px', PHONE],
  ] as const) {
    // Twenty round trips to a country page and back: beside two busy loops and at
    // E2E_CPU_THROTTLE=4 they took over the suite's 60 s (scripts/loaded-test.mjs). A limit for
    // twenty page loads, not a wait.
    it(
      `clicking at each marker's visible centre opens that marker's country at ${width}`,
      {
        timeout: 240_000,
      },
      async () => {
        const { page } = await suite.open(options);
        await page.goto(`${suite.stack.baseUrl}/`);
        await waitForMap(page, 20);
        await page
          .locator('.map-panel')
          .screenshot({ path: screenshotPath(`map-markers-${width.replace(' ', '')}`) });
        const centres = await markerCentres(page);
        expect(centres).toHaveLength(20);
        expect(centres.every((c) => /^[A-Z]{3}$/.test(c.iso))).toBe(true);
        const opensWrong: string[] = [];
        for (const centre of centres) {
          // The map must be scrolled into view for a real click at that point.
          await page.locator(`.hotspot-marker[data-iso="${centre.iso}"]`).scrollIntoViewIfNeeded();
          const now = (await markerCentres(page)).find((c) => c.iso === centre.iso);
          expect(now, `marker ${centre.iso}`).toBeDefined();
          await page.mouse.click(now!.x, now!.y);
          await page.waitForURL(/\/country\/[A-Z]{3}$/);
          const opened = new URL(page.url()).pathname.split('/').pop();
          if (opened !== centre.iso) opensWrong.push(`${centre.iso} opened ${opened}`);
          await page.goBack();
          await waitForMap(page, 20);
        }
        expect(opensWrong).toEqual([]);
      },
    );
  }
});

describe('keyboard (issue 11, point 3)', () => {
  it('reaches the first table row in at most 10 Tab presses; shapes are not Tab stops', async () => {
    const { page } = await suite.open(DESKTOP);
    await page.goto(`${suite.stack.baseUrl}/`);
    await waitForMap(page, 20);
    const firstRow = page.locator('.hotspot-table tbody tr').first().getByRole('link');
    const firstRowName = await firstRow.textContent();
    let presses = 0;
    let reached = false;
    while (presses < 10 && !reached) {
      await page.keyboard.press('Tab');
      presses += 1;
      const focused = await page.evaluate(() => document.activeElement?.textContent ?? '');
      if (focused === 'Skip to the hotspot table') {
        await page.keyboard.press('Enter');
        continue;
      }
      reached = await firstRow.evaluate((el) => el === document.activeElement);
    }
    expect({ reached, presses }).toMatchObject({ reached: true });
    expect(firstRowName).toBeTruthy();
    // No shape of the map is a Tab stop; every marker is, with a name.
    const focusableShapes = await page.$$eval(
      '.world-map path',
      (paths) => paths.filter((p) => (p as SVGElement).tabIndex >= 0).length,
    );
    expect(focusableShapes).toBe(0);
    // A skip link to the map lands on it, and the next Tab is a marker.
    await page.goto(`${suite.stack.baseUrl}/`);
    await waitForMap(page, 20);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to the map');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    expect(
      await page.evaluate(() => document.activeElement?.classList.contains('hotspot-marker')),
    ).toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/country\/[A-Z]{3}$/);
    await page.screenshot({ path: screenshotPath('keyboard-country') });
  });
});

/** Init script: `window.__firstRenderAt`, when the app first puts anything into #root. */
const RECORD_FIRST_RENDER = `
      new MutationObserver((_, observer) => {
        const root = document.getElementById('root');
        if (root && root.childElementCount > 0) {
          window.__firstRenderAt = performance.now();
          observer.disconnect();
        }
      }).observe(document, { childList: true, subtree: true });
`;

/**
 * What the overview may ask for up to its first render: its HTML's script, the runtime and vendor
 * files that script imports, its stylesheet, the three preloaded data requests, the map's script,
 * stylesheet and shapes (app/start-page.ts), the icon, and the header's two small requests (made
 * as the first render is committed, which the observer of #root reports a moment later). Every
 * other request shares the browser's six connections per host with these, or adds a file to run
 * or an answer to parse before the first frame.
 */
const BEFORE_FIRST_RENDER = [
  /^\/assets\/(index|rolldown-runtime|vendor|world-map|world-shapes)-[\w-]+\.(js|css)$/,
  /^\/api\/(status|countries|v1\/hotspots\?limit=20|me|alerts\/unread-count)$/,
  // The movers strip under the index is in the first render (its recorded moves).
  /^\/api\/changes\?since=previous$/,
  /^\/favicon\.svg$/,
  // A framed page's scripts are asked for by this one once the frame is painted.
  /^\/first-frame-boot\.js$/,
];

describe('first paint (issue 11, point 11)', () => {
  it('the data requests start with the HTML, not after the JavaScript, and are made once', async () => {
    const { page } = await suite.open(DESKTOP);
    await page.addInitScript(RECORD_FIRST_RENDER);
    const dataRequests: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/')) dataRequests.push(`${url.pathname}${url.search}`);
    });
    await page.goto(`${suite.stack.baseUrl}/`);
    await waitForMap(page, 20);
    const timing = await page.evaluate(() => {
      const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const script = entries.find((e) => /\/assets\/index-[^/]+\.js$/.test(e.name));
      const data = entries.filter((e) => /\/api\/(countries|v1\/hotspots)/.test(e.name));
      const firstRender = (window as unknown as { __firstRenderAt?: number }).__firstRenderAt;
      return {
        scriptEnd: script?.responseEnd ?? null,
        dataStarts: data.map((e) => e.startTime),
        firstRender: firstRender ?? null,
        beforeFirstRender: entries
          .filter((e) => firstRender !== undefined && e.startTime < firstRender)
          .map((e) => {
            const url = new URL(e.name);
            return `${url.pathname}${url.search}`;
          }),
      };
    });
    expect(timing.scriptEnd).not.toBeNull();
    expect(timing.firstRender).not.toBeNull();
    // Nothing else before the first render: the sites layer (supercluster and the sites'
    // schemas) and four tiny shared files were fetched and run there (docs/benchmarks.md, 3).
    const unexpected = timing.beforeFirstRender.filter(
      (path) => !BEFORE_FIRST_RENDER.some((allowed) => allowed.test(path)),
    );
    expect(unexpected).toEqual([]);
    expect(timing.dataStarts).toHaveLength(2);
    // Both requests were under way before the app's own script had even arrived.
    for (const start of timing.dataStarts) expect(start).toBeLessThan(timing.scriptEnd!);
    // The SPA took the preloaded answers: no second request for the same data.
    const counts = new Map<string, number>();
    for (const path of dataRequests) counts.set(path, (counts.get(path) ?? 0) + 1);
    expect(counts.get('/api/countries')).toBe(1);
    expect(counts.get('/api/v1/hotspots?limit=20')).toBe(1);
    // The strip and What changed read the same answer, asked for once as the app started.
    expect(counts.get('/api/changes?since=previous')).toBe(1);
    // The past-batch timeline (up to 500 batches) waits until its picker is opened: asked for
    // as the overview mounted, its answer was parsed while the first frame was being drawn.
    expect(dataRequests.filter((path) => path.startsWith('/api/batches'))).toEqual([]);
    await page.getByText('Open a past batch').click();
    await page.getByRole('slider', { name: /Batch/ }).waitFor();
    expect(dataRequests.filter((path) => path.startsWith('/api/batches'))).toHaveLength(1);
  });

  it("the map's chunks are asked for by the starting app, before the page's first render", async () => {
    const { page } = await suite.open(DESKTOP);
    await page.addInitScript(RECORD_FIRST_RENDER);
    const chunkRequests: string[] = [];
    page.on('request', (request) => {
      const name = new URL(request.url()).pathname.split('/').pop() ?? '';
      if (/^(world-map|world-shapes)-.+\.js$/.test(name)) chunkRequests.push(name);
    });
    await page.goto(`${suite.stack.baseUrl}/`);
    await waitForMap(page, 20);
    const timing = await page.evaluate(() => ({
      firstRender: (window as unknown as { __firstRenderAt?: number }).__firstRenderAt ?? null,
      chunks: (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((e) => /\/assets\/(world-map|world-shapes)-[^/]+\.js$/.test(e.name))
        .map((e) => ({ name: e.name, start: e.startTime })),
    }));
    expect(timing.firstRender).not.toBeNull();
    // The map with Leaflet, and the shapes (vite.config.ts).
    expect(timing.chunks).toHaveLength(2);
    // Requested while the entry script ran, not from the overview's render or effects.
    for (const chunk of timing.chunks)
      expect(chunk.start, chunk.name).toBeLessThan(timing.firstRender!);
    // And once each: the overview took the chunks the start had asked for.
    expect(chunkRequests).toHaveLength(2);
  });

  it('a framed page asks for its scripts after its first paint; a title-bar page links them as index.html does', async () => {
    // The 20 module links a country page once carried started with its stylesheet and put
    // Lighthouse's first paint on a phone 0.8-1.0 s later: Vite's loader asks for them instead.
    // A framed page's head links none (its entry and vendor modules shared a phone's connection
    // with the stylesheet: the frame painted at 2.3 s instead of 0.8 s): its boot script adds
    // them once the frame is on screen.
    const head = async (path: string) => {
      const html = await (await fetch(`${suite.stack.baseUrl}${path}`)).text();
      return html.slice(0, html.indexOf('</head>'));
    };
    const linked = (text: string) =>
      [
        ...text.matchAll(
          /<(?:link rel="(?:modulepreload|preload)"|script)[^>]*(?:href|src)="([^"]+)"/g,
        ),
      ]
        .map(([, href = '']) => href)
        .filter((href) => href.startsWith('/assets/'));
    const shell = await head('/compare?iso=UKR,FRA');
    expect(linked(shell).length).toBeGreaterThan(1);
    for (const path of ['/', '/country/UKR']) {
      const framed = await head(path);
      expect(linked(framed), path).toEqual([]);
      const boot =
        /<script src="\/first-frame-boot\.js" data-entry="([^"]+)" data-modules="([^"]*)" defer>/.exec(
          framed,
        );
      expect(boot, path).not.toBeNull();
      expect([boot![1], ...boot![2]!.split(' ')].sort(), path).toEqual(linked(shell).sort());
    }

    // In the browser: the entry is asked for after the first contentful paint, and the SPA
    // takes over.
    const { page } = await suite.open(DESKTOP);
    await page.goto(`${suite.stack.baseUrl}/`);
    await waitForMap(page, 20);
    const order = await page.evaluate(() => {
      const paint = performance.getEntriesByName('first-contentful-paint')[0];
      const entry = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).find(
        (e) => /\/assets\/index-[^/]+\.js$/.test(e.name),
      );
      return { paint: paint?.startTime ?? null, entry: entry?.startTime ?? null };
    });
    expect(order.paint).not.toBeNull();
    expect(order.entry).not.toBeNull();
    expect(order.entry!).toBeGreaterThan(order.paint!);
  });

  it('a framed page still starts the SPA in a browser that reports no paint', async () => {
    // Paint timing missing (an older browser): the boot script falls back on the load event.
    const { page } = await suite.open(DESKTOP);
    await page.addInitScript(`
      Object.defineProperty(PerformanceObserver, 'supportedEntryTypes', {
        get: () => ['resource', 'navigation'],
      });
    `);
    await page.goto(`${suite.stack.baseUrl}/`);
    await waitForMap(page, 20);
    expect(await page.locator('#first-frame').count()).toBe(0);
  });

  it('the first render creates no Intl formatter, and no page breaks the CSP as it loads', async () => {
    const { page } = await suite.open(DESKTOP);
    // The first Intl object costs Chromium 13–20 ms of ICU loading (lib/format.ts), and Zod's
    // probe for eval (lib/zod-config.ts) was a CSP violation on every load.
    await page.addInitScript(`
      window.__intlAt = [];
      window.__cspViolations = [];
      for (const name of ['NumberFormat', 'DateTimeFormat', 'Collator', 'PluralRules']) {
        const Original = Intl[name];
        Intl[name] = function (...args) {
          window.__intlAt.push(performance.now());
          return new Original(...args);
        };
      }
      document.addEventListener('securitypolicyviolation', (event) => {
        window.__cspViolations.push(event.violatedDirective + ' ' + event.blockedURI);
      });
    `);
    await page.addInitScript(RECORD_FIRST_RENDER);
    const read = () =>
      page.evaluate(() => {
        const w = window as unknown as {
          __intlAt: number[];
          __cspViolations: string[];
          __firstRenderAt?: number;
        };
        return { intl: w.__intlAt, csp: w.__cspViolations, firstRender: w.__firstRenderAt };
      });
    await page.goto(`${suite.stack.baseUrl}/`);
    await waitForMap(page, 20);
    await page.getByRole('table').locator('tbody tr').first().waitFor();
    const overview = await read();
    expect(overview.firstRender).toBeGreaterThan(0);
    expect(overview.intl.filter((at) => at < overview.firstRender!)).toEqual([]);
    expect(overview.csp).toEqual([]);
    await page.goto(`${suite.stack.baseUrl}/country/SDN`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect((await read()).csp).toEqual([]);
  });

  for (const [width, options] of [
    ['1440 px', DESKTOP],
    ['375 px', PHONE],
  ] as const) {
    it(`the overview does not move as its panels load, at ${width}`, async () => {
      const { page } = await suite.open(options);
      await page.addInitScript(`
        window.__layoutShifts = [];
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) window.__layoutShifts.push(entry.value);
        }).observe({ type: 'layout-shift', buffered: true });
      `);
      await page.goto(`${suite.stack.baseUrl}/`);
      await waitForMap(page);
      // Everything loaded: no skeleton or loading frame left (the trend chart included).
      await page.waitForFunction(
        () => document.querySelectorAll('main [aria-busy="true"]').length === 0,
      );
      const shifts = await page.evaluate(
        () => (window as unknown as { __layoutShifts: number[] }).__layoutShifts,
      );
      const total = shifts.reduce((sum, value) => sum + value, 0);
      // Good by Chromium's own measure is under 0.1; the header, trend and What-changed panels
      // arriving used to push the map down by 0.19 (phone) to 0.3 (desktop).
      expect(total).toBeLessThan(0.05);
    });
  }
});

describe('exports for spreadsheets (issue 11, point 6)', () => {
  it("the overview's spreadsheet CSV follows the view's tiers; the country page has its own", async () => {
    const { page } = await suite.open({ ...DESKTOP, acceptDownloads: true });
    await page.goto(`${suite.stack.baseUrl}/?tier=crit,high`);
    await page.locator('.hotspot-table tbody tr').first().waitFor();
    // One spreadsheet per view (issue 33, point 2): the table's download of the rows shown.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Spreadsheet (CSV)' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^hotspots-.*\.csv$/);
    const text = await readFile((await download.path())!, 'utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    const rows = parse(text, { bom: true, columns: true }) as Record<string, string>[];
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((r) => r.Tier))).toEqual(new Set(['Critical', 'High']));

    await page.goto(`${suite.stack.baseUrl}/country/UKR`);
    const [countryFile] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: /^Download .+ as CSV$/ }).click(),
    ]);
    expect(countryFile.suggestedFilename()).toMatch(/^global-risk-UKR-\d{4}-\d\d-\d\d-\d{4}\.csv$/);
    const countryRows = parse(await readFile((await countryFile.path())!, 'utf8'), {
      bom: true,
      columns: true,
    }) as Record<string, string>[];
    expect(countryRows.length).toBeGreaterThan(0);
    expect(countryRows.every((r) => r['ISO code'] === 'UKR')).toBe(true);
  });
});

/** Marker centres relative to the map's own box (they move when the map pans, not with scrolling). */
async function markersInMap(page: Page): Promise<Map<string, { x: number; y: number }>> {
  return (await readMap(page)).markers;
}

/**
 * The markers' centres after the page has drawn two more frames (so a state change already
 * queued, such as the markers' re-spread after a zoom, is on screen), and whether Leaflet is
 * still animating a pan or a zoom. One read of the layout, so a scroll in progress cannot come
 * between the two boxes. Measured from the map's centre, which is what a view (centre and zoom)
 * fixes: when the map's box changes size (a scrollbar appearing), Leaflet keeps the centre.
 */
async function readMap(
  page: Page,
): Promise<{ markers: Map<string, { x: number; y: number }>; animating: boolean }> {
  const read = await page.evaluate(async () => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    await frame();
    await frame();
    const map = document.getElementById('world-map')!;
    const box = map.getBoundingClientRect();
    const midX = box.left + box.width / 2;
    const midY = box.top + box.height / 2;
    const markers = [...map.querySelectorAll<HTMLElement>('.hotspot-marker')].map((m) => {
      const r = m.getBoundingClientRect();
      return [
        m.dataset.iso ?? '',
        { x: r.left + r.width / 2 - midX, y: r.top + r.height / 2 - midY },
      ] as const;
    });
    const animating = map.querySelector('.leaflet-pan-anim, .leaflet-zoom-anim') !== null;
    return { markers, animating };
  });
  return { markers: new Map(read.markers), animating: read.animating };
}

/**
 * The markers once the map has stopped moving: Leaflet pans and zooms in animated steps, and on
 * a slow machine two reads a poll apart can fall between the frames of one move (a shared
 * link's test then compared against a view that was still changing). Settled means no
 * animation running and the same positions in two reads, each after fresh frames.
 */
async function settledMarkers(page: Page): Promise<Map<string, { x: number; y: number }>> {
  let last = await readMap(page);
  await expect
    .poll(async () => {
      const now = await readMap(page);
      const still =
        !now.animating && !last.animating && largestShift(last.markers, now.markers) < 0.5;
      last = now;
      return still;
    })
    .toBe(true);
  return last.markers;
}

function largestShift(
  before: Map<string, { x: number; y: number }>,
  after: Map<string, { x: number; y: number }>,
): number {
  let largest = 0;
  for (const [iso, a] of before) {
    const b = after.get(iso);
    if (b) largest = Math.max(largest, Math.hypot(b.x - a.x, b.y - a.y));
  }
  return largest;
}

function medianShift(
  before: Map<string, { x: number; y: number }>,
  after: Map<string, { x: number; y: number }>,
): number {
  const shifts: number[] = [];
  for (const [iso, a] of before) {
    const b = after.get(iso);
    if (b) shifts.push(Math.hypot(b.x - a.x, b.y - a.y));
  }
  if (shifts.length < 3) return Number.POSITIVE_INFINITY;
  return shifts.sort((x, y) => x - y)[Math.floor(shifts.length / 2)]!;
}

describe('the map on a phone (issue 11, point 4)', () => {
  it('a one-finger vertical swipe on the map scrolls the page and leaves the map alone', async () => {
    const { page } = await suite.open(PHONE);
    await page.goto(`${suite.stack.baseUrl}/`);
    await waitForMap(page, 20);
    await page.locator('#world-map').scrollIntoViewIfNeeded();
    const box = (await page.locator('#world-map').boundingBox())!;
    const scrollBefore = await page.evaluate(() => window.scrollY);
    const before = await markersInMap(page);
    // One finger, through Chromium's real touch input pipeline (what a phone sends).
    const cdp = await page.context().newCDPSession(page);
    const x = Math.round(box.x + box.width / 2);
    const y = Math.round(box.y + box.height * 0.75);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
    for (let step = 1; step <= 10; step += 1) {
      await cdp.send('Input.dispatchTouchEvent', {
        type: 'touchMove',
        touchPoints: [{ x, y: y - step * 15 }],
      });
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(scrollBefore + 50);
    expect(largestShift(before, await markersInMap(page))).toBeLessThan(1);
    expect(await page.getByText('Move or zoom the map with two fingers.').isVisible()).toBe(true);
    // The table's last column is not cut off: it fits without scrolling sideways.
    const table = page.getByRole('region', { name: 'Hotspot table' });
    expect(await table.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    expect(await page.getByText(/^Δ risk: change since the previous batch/).isVisible()).toBe(true);
    await page.screenshot({ path: screenshotPath('overview-375-after-swipe') });
    // Whatever the batch: the widest values a row can hold (a risk of 100.00, a two-digit
    // change, a long one-word name) still fit. Written into the first row's cells here: this
    // hour's data decided it before (a change of +11.97 overflowed by 3 px).
    const widest = await table.evaluate((el) => {
      const heads = [...el.querySelectorAll('thead th')].map((th) => th.textContent ?? '');
      const cells = [...el.querySelectorAll('tbody tr:first-child > *')];
      const at = (start: string) => cells[heads.findIndex((text) => text.startsWith(start))];
      at('Risk')!.textContent = '100.00';
      at('Δ risk')!.textContent = '▲ +99.99';
      el.querySelector('tbody tr:first-child th a')!.textContent = 'Afghanistan';
      return el.scrollWidth - el.clientWidth;
    });
    expect(widest).toBeLessThanOrEqual(0);
  });

  it('panning stops at the edge of the world, and "Reset view" brings the first view back', async () => {
    const { page } = await suite.open(DESKTOP);
    await page.goto(`${suite.stack.baseUrl}/`);
    await waitForMap(page, 20);
    const first = await markersInMap(page);
    await page.locator('#world-map').focus();
    for (let i = 0; i < 40; i += 1) await page.keyboard.press('ArrowDown');
    // Leaflet pans by keyboard in animated steps: wait until the view stops moving.
    const last = await settledMarkers(page);
    expect(largestShift(first, last)).toBeGreaterThan(20);
    const visibleShapes = await page.evaluate(() => {
      const frame = document.getElementById('world-map')!.getBoundingClientRect();
      return [...document.querySelectorAll('#world-map path.shape')].filter((p) => {
        const r = p.getBoundingClientRect();
        return (
          r.bottom > frame.top &&
          r.top < frame.bottom &&
          r.right > frame.left &&
          r.left < frame.right
        );
      }).length;
    });
    expect(visibleShapes).toBeGreaterThan(20);
    await page.getByRole('button', { name: 'Reset view' }).click();
    await expect.poll(async () => largestShift(first, await markersInMap(page))).toBeLessThan(2);
  });

  it('the map keeps its centre when its box changes size without the window resizing', async () => {
    // Panels loading, a scrollbar arriving or a sidebar folding change the map's box while the
    // window stays the same size; Leaflet only listens to the window, so without watching the
    // box it keeps its old size: the view drifts off centre and the newly uncovered strip stays
    // blank (a shared link's view opened on a slower machine was 10.8 px off in CI).
    const { page } = await suite.open(DESKTOP);
    await page.goto(`${suite.stack.baseUrl}/`);
    await waitForMap(page, 20);
    await waitForPanels(page);
    const before = await settledMarkers(page);
    const width = await page
      .locator('#world-map')
      .evaluate((el) => el.getBoundingClientRect().width);
    await page.locator('#world-map').evaluate((el) => {
      (el as HTMLElement).style.width = '70%';
    });
    const narrower = await page
      .locator('#world-map')
      .evaluate((el) => el.getBoundingClientRect().width);
    // The box moved its centre by 15 % of the width: far beyond the tolerance below.
    expect((width - narrower) / 2).toBeGreaterThan(50);
    await expect.poll(async () => medianShift(before, await markersInMap(page))).toBeLessThan(2);
    expect(new URL(page.url()).searchParams.get('map')).toBeNull();
  });

  it('a shared view at the edge of the map stays put when the page widens the map for a moment', async () => {
    // At 1440 px this view is held against the map's eastern bound. A box wider for a moment
    // (a page drawn before its answers) pushed such a centre inwards for good: the link then
    // opened 9 px off the view it was made from (CI).
    const { page } = await suite.open(DESKTOP);
    await page.goto(`${suite.stack.baseUrl}/?map=22.99,80,2.75`);
    await waitForMap(page, 20);
    await waitForPanels(page);
    const linked = await settledMarkers(page);
    const width = await page
      .locator('#world-map')
      .evaluate((el) => el.getBoundingClientRect().width);
    await page.locator('#world-map').evaluate((el, wider) => {
      (el as HTMLElement).style.width = `${wider}px`;
    }, width + 40);
    // The wider box shows more of the east: the bound holds the view 20 px further west.
    await expect
      .poll(async () => medianShift(linked, await markersInMap(page)))
      .toBeGreaterThan(10);
    await page.locator('#world-map').evaluate((el) => {
      (el as HTMLElement).style.width = '';
    });
    await expect.poll(async () => medianShift(linked, await markersInMap(page))).toBeLessThan(2);
    expect(new URL(page.url()).searchParams.get('map')).toBe('22.99,80,2.75');
  });

  it('a shared link keeps the map view; the first view and "Reset view" leave the URL clean', async () => {
    const { page } = await suite.open(DESKTOP);
    await page.goto(`${suite.stack.baseUrl}/?tier=crit,high`);
    await waitForMap(page);
    // Panels loading (and the map resizing with them) are not a view someone chose.
    await waitForPanels(page);
    expect(new URL(page.url()).search).toBe('?tier=crit,high');
    const home = await markersInMap(page);
    await page.locator('#world-map').focus();
    const mapParam = () => new URL(page.url()).searchParams.get('map');
    // One key at a time, each awaited into the URL: Leaflet drops an arrow pressed while a pan
    // is still moving, and a key still in the renderer's queue would move the map after the
    // link is taken (a link one pan, 80 px, behind the map failed this test on a busy machine).
    for (const key of ['Equal', 'ArrowRight', 'ArrowRight', 'ArrowRight']) {
      const before = mapParam();
      await page.keyboard.press(key);
      await expect.poll(mapParam).not.toBe(before);
    }
    expect(mapParam()).toMatch(/^-?\d+(\.\d+)?,-?\d+(\.\d+)?,\d+(\.\d+)?$/);
    // Wait for the view to settle, then open the same link elsewhere: the same view.
    const last = await settledMarkers(page);
    // The move is large next to the tolerance below: a link that lost the view would fail.
    expect(medianShift(home, last)).toBeGreaterThan(50);
    const shared = page.url();
    expect(new URL(shared).searchParams.get('tier')).toBe('crit,high');
    const other = await suite.open(DESKTOP);
    await other.page.goto(shared);
    await waitForMap(other.page);
    await waitForPanels(other.page);
    // The same view: the markers stand where they stood, to a few pixels (the median of their
    // shifts; a marker fanned out of a cluster may be placed on another side of it).
    await expect
      .poll(async () => medianShift(last, await markersInMap(other.page)), { timeout: 10_000 })
      .toBeLessThan(6);
    await page.getByRole('button', { name: 'Reset view' }).click();
    await expect.poll(mapParam).toBeNull();
    expect(new URL(page.url()).searchParams.get('tier')).toBe('crit,high');
  });
});

/** Hue in degrees and saturation (0–1) of an `rgb(…)` or `#rrggbb` colour. */
function hueOf(colour: string): { hue: number; saturation: number } {
  const hex = /^#([0-9a-f]{6})$/i.exec(colour);
  const [r, g, b] = hex
    ? [0, 2, 4].map((i) => parseInt(hex[1]!.slice(i, i + 2), 16) / 255)
    : colour
        .match(/\d+(\.\d+)?/g)!
        .slice(0, 3)
        .map((v) => Number(v) / 255);
  const max = Math.max(r!, g!, b!);
  const min = Math.min(r!, g!, b!);
  const saturation = max === 0 ? 0 : (max - min) / max;
  if (max === min) return { hue: 0, saturation };
  const d = max - min;
  const hue =
    max === r ? ((g! - b!) / d + 6) % 6 : max === g ? (b! - r!) / d + 2 : (r! - g!) / d + 4;
  return { hue: hue * 60, saturation };
}

function hueDistance(a: string, b: string): number {
  const ha = hueOf(a);
  const hb = hueOf(b);
  // A grey is apart from any colour.
  if (ha.saturation < 0.15 || hb.saturation < 0.15) return 180;
  const d = Math.abs(ha.hue - hb.hue);
  return Math.min(d, 360 - d);
}

describe('small things (issue 11, point 10)', () => {
  it('a page opened in the same tab starts at its top; a reload keeps its place', async () => {
    const { page } = await suite.open(PHONE);
    const scrollY = () => page.evaluate(() => window.scrollY);
    // The SPA drawn (the server's first frame gone) and its panels loaded.
    const drawn = async () => {
      await page.waitForFunction(() => !document.getElementById('first-frame'));
      await page.locator('#root main').waitFor();
      await waitForPanels(page);
    };
    await page.goto(`${suite.stack.baseUrl}/compare?iso=MLI,NER,BFA`);
    await drawn();
    await page.evaluate(() => window.scrollTo(0, 900));
    await expect.poll(scrollY).toBeGreaterThan(800);
    // React Router once restored this load to the compare page's place: both were the first
    // page of their load, and it kept positions by that key across loads.
    await page.goto(`${suite.stack.baseUrl}/country/SDN`);
    await drawn();
    expect(await scrollY()).toBe(0);
    await page.evaluate(() => window.scrollTo(0, 700));
    await expect.poll(scrollY).toBe(700);
    await page.reload();
    await drawn();
    await expect.poll(scrollY).toBe(700);
  });

  it("a country page's Compare with…, Follow and Brief are one row on a wide screen", async () => {
    const { page } = await suite.open(DESKTOP);
    await page.goto(`${suite.stack.baseUrl}/country/SDN`);
    const actions = page.locator('.country-actions');
    const follow = actions.getByRole('button', { name: /Follow/ });
    const parts = [
      actions.getByRole('combobox', { name: 'Compare with…' }),
      actions.getByRole('button', { name: 'Compare' }),
      follow,
      actions.getByRole('link', { name: 'Brief (print)' }),
    ];
    await follow.waitFor();
    await actions.screenshot({ path: screenshotPath('country-actions-1440px') });
    const middles: number[] = [];
    for (const part of parts) {
      const box = await part.boundingBox();
      if (!box) throw new Error('a part of the row is not drawn');
      middles.push(box.y + box.height / 2);
    }
    // One row: every part's middle within a few pixels of the field's (the button came a line
    // below it, 39 px, with Follow and Brief centred between the two lines).
    const [field = Number.NaN] = middles;
    for (const middle of middles) expect(Math.abs(middle - field)).toBeLessThan(4);
  });

  it('tiers, direction of change and chart series have palettes of their own', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const { page } = await suite.open({ ...DESKTOP, colorScheme });
      await page.goto(`${suite.stack.baseUrl}/country/UKR`);
      await page.locator('.categories-chart .bar-active').first().waitFor();
      const series = await page.$$eval(
        '.categories-chart :is(.bar-static, .bar-active)',
        (bars) => [...new Set(bars.map((bar) => getComputedStyle(bar).backgroundColor))],
      );
      expect(series).toHaveLength(2);
      const direction = await page.evaluate(() =>
        ['delta-up', 'delta-down'].map((cls) => {
          const probe = document.createElement('span');
          probe.className = `delta ${cls}`;
          document.body.append(probe);
          const colour = getComputedStyle(probe).color;
          probe.remove();
          return colour;
        }),
      );
      const tiers = Object.values(TIER_COLOURS).map((c) => c.fill);
      const clashes: string[] = [];
      for (const [group, colours] of [
        ['direction', direction],
        ['series', series],
      ] as const) {
        for (const colour of colours) {
          for (const tier of tiers) {
            if (hueDistance(colour, tier) < 30) clashes.push(`${group} ${colour} ~ tier ${tier}`);
          }
        }
      }
      for (const d of direction) {
        for (const s of series) {
          if (hueDistance(d, s) < 30) clashes.push(`direction ${d} ~ series ${s}`);
        }
      }
      expect(clashes, colorScheme).toEqual([]);
    }
  });

  it('map tooltips follow the dark theme', async () => {
    const { page } = await suite.open({ ...DESKTOP, colorScheme: 'dark' });
    await page.goto(`${suite.stack.baseUrl}/`);
    await waitForMap(page, 20);
    await page.locator('.hotspot-marker').last().hover();
    const tooltip = page.locator('.leaflet-tooltip').first();
    await tooltip.waitFor();
    const background = await tooltip.evaluate((el) => getComputedStyle(el).backgroundColor);
    const [r, g, b] = background.match(/\d+/g)!.map(Number);
    expect(r! + g! + b!).toBeLessThan(200);
    await page.screenshot({ path: screenshotPath('overview-dark-tooltip') });
  });

  it('titles name the view; the overview can be shared; Δ and roles are explained', async () => {
    const { page } = await suite.open(DESKTOP);
    await page.goto(`${suite.stack.baseUrl}/?tier=crit,high`);
    await page.locator('.hotspot-table tbody tr').first().waitFor();
    await expect.poll(() => page.title()).toBe('Overview: Critical, High · Global Risk Dashboard');
    expect(await page.getByRole('button', { name: 'Share link' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: /^Δ risk/ }).getAttribute('title')).toMatch(
      /since the previous batch/,
    );
    await page.goto(`${suite.stack.baseUrl}/country/UKR`);
    await page.locator('.event').first().waitFor();
    await expect.poll(() => page.title()).toBe('Ukraine (UKR) · Global Risk Dashboard');
    const roles = await page.locator('.badge-role').allTextContents();
    expect(roles.length).toBeGreaterThan(0);
    expect(roles.every((r) => r === 'Happened here' || r === 'Took part')).toBe(true);
  });
});
