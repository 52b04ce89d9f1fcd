import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  drawTrend,
  launchChromium,
  openPage,
  screenshotPath,
  waitForMap,
  waitForPanels,
  type WatchedPage,
} from './browser.js';
import { startHistoryE2eStack, type HistoryE2eStack } from './history-stack.js';

// Issue 19, point 10: the map in the first screen of a 1440×900 display, and no page jumping as
// its panels load (cumulative layout shift under 0.01), after the BFF recorded some batches (so
// the trend, What changed, the archive and the brief have something to draw).
const BATCHES = 6;
const DESKTOP = { viewport: { width: 1440, height: 900 } };
const PHONE = { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true };

let stack: HistoryE2eStack;
let browser: Browser;
const opened: WatchedPage[] = [];
/** The first of our sites imported below: its page is one of the pages checked. */
let siteId = 0;

/** A few of our sites (issue 20), so /exposure and a site page have something to draw. */
const SITES_CSV = [
  'ref;name;kind;lat;lng;people;tags',
  'S-1;Kyiv office;office;50.45;30.52;40;emea',
  'S-2;Warsaw office;office;52.23;21.01;120;emea',
  'S-3;Lagos plant;plant;6.52;3.38;300;africa',
  'S-4;Bamako depot;warehouse;12.64;-8.0;12;africa',
  'S-5;Bogotá office;office;4.71;-74.07;18;americas',
].join('\n');

beforeAll(async () => {
  stack = await startHistoryE2eStack(BATCHES);
  browser = await launchChromium();
  const res = await fetch(`${stack.baseUrl}/api/sites/import`, {
    method: 'POST',
    headers: { 'content-type': 'text/csv' },
    body: `${SITES_CSV}\n`,
  });
  const answer = (await res.json()) as { created: { id: number }[] };
  expect(answer.created).toHaveLength(5);
  siteId = answer.created[0]!.id;
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});
afterEach(async () => {
  for (const watched of opened.splice(0)) {
    expect(watched.foreignRequests, 'requests to non-loopback hosts').toEqual([]);
    expect(watched.errors, 'page errors').toEqual([]);
    expect(watched.httpErrors, 'HTTP errors').toEqual([]);
    await watched.close();
  }
});

/**
 * Installed before the page's own scripts: every layout shift Chromium reports, from the first
 * paint on (buffered). All of them, although CLS leaves out those within 500 ms of the person's
 * own input (`hadRecentInput`): these tests give none, but Playwright runs `page.evaluate` as a
 * user gesture, and Chromium then flags the next half second's shifts as after input. A shift of
 * the inbox's filters went unseen that way, 0.058 flagged, right after the test's own evaluate.
 */
const RECORD_LAYOUT_SHIFTS = `
  window.__layoutShift = { total: 0, shifts: [] };
  // Whether the server's first frame came with the page: the SPA's first render waits
  // differently behind it (app/start-page.ts), so a failure says which path it took.
  document.addEventListener('DOMContentLoaded', () => {
    window.__layoutShift.framed = document.getElementById('first-frame') !== null;
  });
  // What a failure names: the element, its id and its heading's first words (a bare
  // "section.panel" left the moved panel to guesswork), and whether it is still in the page.
  const describe = (n) => {
    const heading = n.querySelector('h1, h2, h3');
    return n.tagName.toLowerCase() + [...n.classList].map((c) => '.' + c).join('') +
      (n.id ? '#' + n.id : '') + (heading ? ' "' + heading.textContent.slice(0, 40) + '"' : '') +
      (n.isConnected ? '' : ' (removed)');
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      window.__layoutShift.total += entry.value;
      window.__layoutShift.shifts.push({
        value: entry.value,
        at: Math.round(entry.startTime),
        moved: entry.sources.map((s) => {
          const n = s.node;
          const what = n && n.nodeType === 1 ? describe(n) : String(n && n.nodeName);
          const rect = (r) => Math.round(r.y) + '+' + Math.round(r.height);
          return what + ' ' + rect(s.previousRect) + '→' + rect(s.currentRect);
        }),
      });
    }
  }).observe({ type: 'layout-shift', buffered: true });
`;

async function openRecording(options: Parameters<typeof openPage>[1]): Promise<Page> {
  const watched = await openPage(browser, options);
  opened.push(watched);
  await watched.page.addInitScript(RECORD_LAYOUT_SHIFTS);
  return watched.page;
}

/** Two frames after the data is shown, so a shift caused by its last render is reported too. */
function twoFrames(page: Page): Promise<void> {
  return page.evaluate(
    () =>
      new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))),
  );
}

interface RecordedShifts {
  total: number;
  shifts: unknown[];
  framed?: boolean;
}

async function layoutShift(page: Page): Promise<RecordedShifts> {
  await twoFrames(page);
  return page.evaluate(
    () => (window as unknown as { __layoutShift: RecordedShifts }).__layoutShift,
  );
}

/** Each page, and what shows that its data is on screen. */
const PAGES: { name: string; path: string; shown: (page: Page) => Promise<void> }[] = [
  {
    name: 'overview',
    path: '/',
    shown: async (page) => {
      await waitForMap(page, 20);
      await page.locator('.hotspot-table tbody tr').first().waitFor();
      await drawTrend(page);
      await page.locator('.changes-panel li').first().waitFor();
    },
  },
  {
    name: 'country page',
    path: '/country/UKR',
    shown: async (page) => {
      await page.getByRole('heading', { level: 1 }).waitFor();
      await drawTrend(page);
    },
  },
  {
    name: 'compare',
    path: '/compare?iso=MLI,NER,BFA',
    shown: (page) => drawTrend(page),
  },
  {
    name: 'all countries',
    path: '/?table=all',
    shown: async (page) => {
      await waitForMap(page, 20);
      await page.locator('.all-countries-table tbody tr').first().waitFor();
    },
  },
  {
    name: 'changes',
    path: '/#what-changed',
    shown: (page) => page.locator('.changes-panel li').first().waitFor(),
  },
  {
    name: 'events',
    path: '/events?q=sanctions',
    shown: (page) => page.locator('.archive-event').first().waitFor(),
  },
  {
    name: 'watchlists',
    path: '/watchlists',
    shown: (page) =>
      page
        .locator('section[aria-labelledby="lists-title"] :is(ul.watchlists, p.empty)')
        .first()
        .waitFor(),
  },
  {
    name: 'alerts',
    path: '/alerts',
    shown: (page) => page.getByRole('heading', { name: 'Inbox' }).waitFor(),
  },
  {
    name: 'brief',
    path: '/brief?iso=MLI,NER',
    shown: (page) => page.locator('.brief-country .sparkline').nth(1).waitFor(),
  },
  {
    name: 'exposure',
    path: '/exposure',
    shown: (page) =>
      page
        .getByRole('region', { name: 'Sites and people by tier' })
        .locator('td')
        .first()
        .waitFor(),
  },
  {
    name: 'site page',
    get path() {
      return `/sites/${siteId}`;
    },
    shown: async (page) => {
      await page.getByRole('heading', { level: 1, name: 'Kyiv office' }).waitFor();
      await page.locator('.recharts-line-curve').first().waitFor({ state: 'attached' });
    },
  },
];

describe('the map in the first screen (issue 19, point 10)', () => {
  it('puts the top of the map well inside a 1440×900 screen once everything is drawn', async () => {
    const page = await openRecording(DESKTOP);
    await page.goto(`${stack.baseUrl}/`);
    await PAGES[0]!.shown(page);
    await waitForPanels(page);
    const canvas = await page.locator('#world-map').boundingBox();
    expect(canvas).not.toBeNull();
    const visible = Math.min(900, canvas!.y + canvas!.height) - canvas!.y;
    // Today's code drew it at y≈650 as the panels loaded, then 1066 below the trend.
    expect(canvas!.y).toBeLessThan(450);
    expect(visible).toBeGreaterThanOrEqual(Math.min(canvas!.height, 400));
    await page.screenshot({ path: screenshotPath('fold-overview-1440') });
  });

  it('keeps the index, then what moved, then the map on a phone', async () => {
    const page = await openRecording(PHONE);
    await page.goto(`${stack.baseUrl}/`);
    await PAGES[0]!.shown(page);
    await waitForPanels(page);
    const top = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((el) => el.getBoundingClientRect().top);
    const index = await top('.global-header');
    const strip = await top('.changes-strip');
    const map = await top('#world-map');
    expect(index).toBeLessThan(strip);
    expect(strip).toBeLessThan(map);
    // The strip's box is of a fixed height and clips: its link to What changed is inside it
    // (a two-line heading pushed it below the clip, focusable and unseen).
    const box = (selector: string) =>
      page.locator(selector).evaluate((el) => {
        const { top, bottom } = el.getBoundingClientRect();
        return { top, bottom };
      });
    const inside = await box('.changes-strip');
    const more = await box('.changes-strip a.strip-more');
    expect(more.top).toBeGreaterThanOrEqual(inside.top);
    expect(more.bottom).toBeLessThanOrEqual(inside.bottom);
    await page.screenshot({ path: screenshotPath('fold-overview-375'), fullPage: true });
  });
});

describe('the panels under the map', () => {
  it('come with the hotspot table, never their loading frames after it (375 px)', async () => {
    const page = await openRecording(PHONE);
    // What the history row shows as the table's first row appears (the same commit): a loading
    // frame there grows after it, under a reader who has scrolled on (0.076 on a loaded CI).
    await page.addInitScript(`
      window.__besideTable = null;
      new MutationObserver((_, observer) => {
        if (!document.querySelector('.hotspot-table tbody tr')) return;
        window.__besideTable = [...document.querySelectorAll('.history-row > section')].map(
          (panel) => panel.className + (panel.getAttribute('aria-busy') === 'true' ? ' (loading)' : ''),
        );
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });
    `);
    await page.goto(`${stack.baseUrl}/`);
    await page.locator('.hotspot-table tbody tr').first().waitFor();
    const beside = await page.evaluate(() => (window as { __besideTable?: unknown }).__besideTable);
    expect(beside).toEqual(['panel trend-panel', 'panel changes-panel']);
  });
});

/**
 * Whether the SPA's title bar is there in the commit that takes the server's frame away: a page
 * drawn before its route's chunk came would be blank meanwhile.
 */
const BAR_AT_HANDOVER = `
  window.__barAtHandover = null;
  new MutationObserver((changes, observer) => {
    for (const change of changes) {
      for (const node of change.removedNodes) {
        if (node.id !== 'first-frame') continue;
        window.__barAtHandover = document.querySelector('#root header.app-bar') !== null;
        observer.disconnect();
      }
    }
  }).observe(document, { childList: true, subtree: true });
`;

const barAtHandover = (page: Page) =>
  page.evaluate(() => (window as { __barAtHandover?: unknown }).__barAtHandover);

describe('the title bar', () => {
  it('is on screen before /api/status and /api/me answer, and stays put when they do (375 px)', async () => {
    const page = await openRecording(PHONE);
    await page.addInitScript(BAR_AT_HANDOVER);
    // Both answers held until the page has drawn a first screen without them, as on a slow
    // connection: the title bar's navigation and user menu depend on them.
    const asked = new Set<string>();
    let answer: () => void = () => {};
    const answered = new Promise<void>((done) => (answer = done));
    await page.route(/\/api\/(status|me)(\?|$)/, async (route) => {
      asked.add(new URL(route.request().url()).pathname);
      await answered;
      await route.continue();
    });
    await page.goto(`${stack.baseUrl}/alerts`);
    // The SPA's own first screen (drawn after waiting 300 ms for them at most), or the server's.
    await page.waitForFunction(
      () => document.getElementById('main') !== null || document.getElementById('first-frame'),
    );
    await expect.poll(() => asked.size).toBe(2);
    await twoFrames(page);
    const nav = page.getByRole('navigation', { name: 'Exposure, watchlists, events and alerts' });
    expect(await nav.isVisible()).toBe(true);
    await page.screenshot({ path: screenshotPath('title-bar-held-375') });
    answer();
    await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    expect(await page.locator('#first-frame').count()).toBe(0);
    expect(await barAtHandover(page)).toBe(true);
    const { total, shifts } = await layoutShift(page);
    expect(total, JSON.stringify(shifts)).toBeLessThan(0.01);
  });

  it("stays on screen until the page's own chunk has come (375 px)", async () => {
    const page = await openRecording(PHONE);
    await page.addInitScript(BAR_AT_HANDOVER);
    // The inbox's chunk held until the title bar's answers are in and drawn.
    let chunkAsked = false;
    let answered = 0;
    let release: () => void = () => {};
    const released = new Promise<void>((done) => (release = done));
    await page.route(/\/assets\/alerts-route-[^/]*\.js$/, async (route) => {
      chunkAsked = true;
      await released;
      await route.continue();
    });
    page.on('requestfinished', (request) => {
      if (/\/api\/(status|me)(\?|$)/.test(request.url())) answered += 1;
    });
    await page.goto(`${stack.baseUrl}/alerts`);
    await expect.poll(() => chunkAsked && answered >= 2).toBe(true);
    await twoFrames(page);
    release();
    await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    expect(await barAtHandover(page)).toBe(true);
    const { total, shifts } = await layoutShift(page);
    expect(total, JSON.stringify(shifts)).toBeLessThan(0.01);
  });
});

describe("the inbox's filters", () => {
  it('keep their places when the lists come after the inbox (375 px)', async () => {
    // A list with a long name and long country names: a select as wide as its longest option
    // wrapped the filters' row when the lists arrived (67 px on a phone with the demo's list).
    const made = await fetch(`${stack.baseUrl}/api/watchlists`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Central Africa and the Great Lakes, seen from the Kinshasa office',
        countries: ['CAF', 'COD', 'BIH'],
        rules: [],
      }),
    });
    expect(made.status).toBe(201);
    const list = ((await made.json()) as { watchlist: { id: string; version: number } }).watchlist;
    try {
      const page = await openRecording(PHONE);
      // The lists answer once the inbox is on screen, as on a slow connection.
      let inboxShown: () => void = () => {};
      const shown = new Promise<void>((done) => (inboxShown = done));
      await page.route(/\/api\/watchlists$/, async (route) => {
        await shown;
        await route.continue();
      });
      await page.goto(`${stack.baseUrl}/alerts`);
      await page.getByRole('heading', { name: 'Inbox' }).waitFor();
      await twoFrames(page);
      inboxShown();
      await page.getByRole('option', { name: /^Central Africa and the Great Lakes/ }).waitFor({
        state: 'attached',
      });
      const { total, shifts } = await layoutShift(page);
      expect(total, JSON.stringify(shifts)).toBeLessThan(0.01);
    } finally {
      // The other pages of this file are measured without it.
      const gone = await fetch(`${stack.baseUrl}/api/watchlists/${list.id}`, {
        method: 'DELETE',
        headers: { 'if-match': `"${list.version}"` },
      });
      expect(gone.status).toBeLessThan(300);
    }
  });
});

describe('no layout shift as panels load (issue 19, point 10)', () => {
  // One test per page: eleven pages in one test ran past its minute on a slow renderer
  // (E2E_CPU_THROTTLE=4), and a failure now names its page.
  for (const [width, options] of [
    ['1440 px', DESKTOP],
    ['375 px', PHONE],
  ] as const) {
    for (const view of PAGES) {
      const name = view.name;
      it(`the ${name} stays below 0.01 cumulative layout shift at ${width}`, async () => {
        const page = await openRecording(options);
        // Read here, not when the tests are collected: the site page's path needs beforeAll.
        await page.goto(`${stack.baseUrl}${view.path}`);
        await view.shown(page);
        await waitForPanels(page);
        const { total, shifts, framed } = await layoutShift(page);
        await page.screenshot({
          path: screenshotPath(`cls-${name.replace(' ', '-')}-${width.replace(' ', '')}`),
        });
        expect(total, JSON.stringify({ framed, shifts })).toBeLessThan(0.01);
      });
    }
  }
});
