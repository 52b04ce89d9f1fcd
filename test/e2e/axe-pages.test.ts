import { beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './axe.js';
import { inEachScheme, waitForMap, waitForPanels } from './browser.js';
import { browserSuite } from './suite.js';

// Issue 19, point 15: axe-core's default rules, every impact, on every page of the SPA (the
// overview's map with its markers drawn), in both themes (each page loaded once and scanned in
// each), at 1440 and 375 px.
const suite = browserSuite();

let listId = '';

beforeAll(async () => {
  await suite.stack.bff.historyIdle();
  await suite.stack.bff.demoWatchlist();
  const res = await fetch(`${suite.stack.baseUrl}/api/watchlists`);
  const lists = ((await res.json()) as { watchlists: { id: string }[] }).watchlists;
  listId = lists[0]?.id ?? '';
});

/** The hotspots the overview's map marks (the demo's default list). */
const HOTSPOT_MARKERS = 20;

/** Every route of the SPA (app/routes.tsx), with views that are a query away. */
const PAGES: [string, () => string][] = [
  ['overview', () => '/'],
  ['all countries', () => '/?table=all'],
  ['country', () => '/country/SDN'],
  ['reference country (no current data)', () => '/country/GRL'],
  ['compare', () => '/compare?iso=MLI,NER'],
  ['events', () => '/events'],
  ['watchlists', () => '/watchlists'],
  ['a watchlist', () => `/watchlists/${listId}`],
  ['alerts', () => '/alerts'],
  ['brief', () => '/brief'],
  ['a watchlist brief', () => `/brief/${listId}`],
  ['not found', () => '/no-such-page'],
];

const SIZES = [
  ['1440', { viewport: { width: 1440, height: 900 } }],
  ['375', { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true }],
] as const;

describe('axe-clean pages (issue 19, point 15)', () => {
  for (const [width, size] of SIZES) {
    it(`every page has no axe violation at ${width} px, light and dark`, async () => {
      // axe is injected as an inline script, which the app's CSP rightly blocks: this context
      // alone bypasses the CSP, for the scanner.
      const { page } = await suite.open({ ...size, bypassCSP: true }, ['404 /api/v1/country/GRL']);
      const found: Record<string, unknown[]> = {};
      for (const [name, path] of PAGES) {
        await page.goto(`${suite.stack.baseUrl}${path()}`);
        await page.locator('main h1').first().waitFor();
        await waitForPanels(page);
        // The overview's map with every marker (its names and colours are axe's to judge too).
        if (path().startsWith('/?') || path() === '/') await waitForMap(page, HOTSPOT_MARKERS);
        await inEachScheme(page, async (scheme) => {
          const violations = await axeViolations(page, { coloursOnly: scheme === 'dark' });
          if (violations.length > 0) found[`${name}, ${scheme}`] = violations;
        });
      }
      expect(found).toEqual({});
    }, 240_000);
  }
});
