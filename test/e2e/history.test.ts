import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './axe.js';
import {
  drawTrend,
  inEachScheme,
  launchChromium,
  openPage,
  pageOverflow,
  screenshotPath,
  waitForPanels,
  type WatchedPage,
} from './browser.js';
import { startHistoryE2eStack, type HistoryE2eStack } from './history-stack.js';
import { printedPdf } from './print-pdf.js';

// The history views in Chromium, against the built SPA and the real history routes, after the
// BFF recorded 20 batches (10 days on the documented 03:00/10:00 schedule).
const BATCHES = 20;
let stack: HistoryE2eStack;
let browser: Browser;
const opened: WatchedPage[] = [];

beforeAll(async () => {
  stack = await startHistoryE2eStack(BATCHES);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

async function open(options?: Parameters<typeof openPage>[1]): Promise<Page> {
  const watched = await openPage(browser, options);
  opened.push(watched);
  return watched.page;
}

afterEach(async () => {
  for (const watched of opened.splice(0)) {
    expect(watched.foreignRequests, 'requests to non-loopback hosts').toEqual([]);
    expect(watched.errors, 'page errors').toEqual([]);
    expect(watched.httpErrors, 'HTTP errors').toEqual([]);
    await watched.close();
  }
});

const trendPanel = (page: Page) => page.getByRole('region', { name: 'Global index trend' });
const changesPanel = (page: Page) => page.getByRole('region', { name: 'What changed' });

describe('overview: trend and What changed', () => {
  it('draws the global trend over the recorded batches; the range and table view are in the URL', async () => {
    // Recorded batches, plus the earlier global values the export's feed_history carries.
    expect(stack.coverage.batches).toBeGreaterThanOrEqual(BATCHES);
    const history = (await (await fetch(`${stack.baseUrl}/api/history/global`)).json()) as {
      points: { as_of: string }[];
    };
    const last = Date.parse(history.points.at(-1)?.as_of ?? '');
    const inWeek = history.points.filter((p) => Date.parse(p.as_of) >= last - 7 * 86_400_000);
    const page = await open();
    await page.goto(`${stack.baseUrl}/?trend=all`);
    const panel = trendPanel(page);
    await drawTrend(panel);
    expect(await panel.locator('.trend-chart .recharts-line').count()).toBe(3);
    expect(await panel.locator('.recharts-reference-area').count()).toBe(0);
    await expect
      .poll(() => panel.getByText(/History since/).textContent())
      .toContain(`(${stack.coverage.batches} batches recorded)`);
    expect(
      await panel
        .getByRole('list', { name: /Countries per tier/ })
        .locator('li')
        .count(),
    ).toBeGreaterThan(1);
    await page.screenshot({ path: screenshotPath('history-overview'), fullPage: true });

    await panel.getByRole('button', { name: '7 days' }).click();
    await page.waitForURL(/trend=7d/);
    await panel.getByRole('button', { name: 'Table' }).click();
    await page.waitForURL(/trend_view=table/);
    // One row per point of the last 7 days: at least the 15 batches recorded in a week.
    expect(inWeek.length).toBeGreaterThanOrEqual(15);
    await expect.poll(() => panel.locator('tbody tr').count()).toBe(inWeek.length);
  });

  it('"What changed" lists movers as links; 24 hours is a URL', async () => {
    const page = await open();
    await page.goto(`${stack.baseUrl}/`);
    const panel = changesPanel(page);
    await panel.getByText(/compared with/).waitFor();
    const riser = panel
      .getByRole('heading', { name: 'Risk rose most' })
      .locator('..')
      .getByRole('link')
      .first();
    const href = await riser.getAttribute('href');
    expect(href).toMatch(/^\/country\/[A-Z]{3}$/);
    await panel.getByRole('button', { name: '24 hours' }).click();
    await page.waitForURL(/changes=24h/);
    await expect
      .poll(() => panel.getByRole('button', { name: '24 hours' }).getAttribute('aria-pressed'))
      .toBe('true');
    await panel.getByText(/compared with/).waitFor();
    await page.screenshot({ path: screenshotPath('history-what-changed'), fullPage: false });
    await panel.getByRole('link').first().click();
    await page.waitForURL(/\/country\/[A-Z]{3}$/);
    await drawTrend(page.getByRole('region', { name: 'Trend' }));
  });
});

describe('overview: All countries', () => {
  it('lists every country of the batch, filters by UN region, and selected rows open Compare', async () => {
    const page = await open();
    await page.goto(`${stack.baseUrl}/`);
    await page.getByRole('button', { name: 'All countries' }).click();
    await page.waitForURL(/table=all/);
    const table = page.getByRole('region', { name: 'All countries table' });
    await table.locator('tbody tr').first().waitFor();
    const all = await table.locator('tbody tr').count();
    expect(all).toBeGreaterThan(150);

    await page.getByLabel('Region').selectOption('Africa/Western Africa');
    await page.waitForURL(/region=Africa%2FWestern/);
    await expect.poll(() => table.locator('tbody tr').count()).toBeLessThan(all);
    // Columns: select, #, country (a row header), region.
    const regions = await table.locator('tbody tr td:nth-child(4)').allTextContents();
    expect(regions.length).toBeGreaterThan(5);
    expect(new Set(regions)).toEqual(new Set(['Western Africa']));
    await page.screenshot({
      path: screenshotPath('history-all-countries-africa'),
      fullPage: false,
    });

    const boxes = table.getByRole('checkbox');
    await boxes.nth(0).check();
    await boxes.nth(1).check();
    await page.getByRole('link', { name: 'Compare 2' }).click();
    await page.waitForURL(/\/compare\?iso=[A-Z]{3},[A-Z]{3}$/);
    await expect
      .poll(() =>
        page.getByRole('region', { name: 'Key numbers table' }).locator('tbody tr').count(),
      )
      .toBe(2);
  });
});

describe('compare', () => {
  it('overlays the trends, shows categories and key numbers; a bad URL says so', async () => {
    const page = await open();
    await page.goto(`${stack.baseUrl}/compare?iso=MLI,NER,BFA`);
    const trend = page.getByRole('region', { name: 'Risk over time' });
    await drawTrend(trend);
    expect(await trend.locator('.recharts-line').count()).toBe(3);
    await expect
      .poll(() =>
        page.getByRole('region', { name: 'Key numbers table' }).locator('tbody tr').count(),
      )
      .toBe(3);
    await expect
      .poll(() =>
        page
          .getByRole('region', { name: 'Categories side by side table' })
          .locator('tbody tr')
          .count(),
      )
      .toBe(10);
    await page.screenshot({ path: screenshotPath('history-compare'), fullPage: true });

    await page.goto(`${stack.baseUrl}/compare?iso=MLI,X1`);
    const notes = page.getByRole('status', { name: 'About this comparison' });
    await expect
      .poll(() => notes.textContent())
      .toContain('“X1” is not a three-letter ISO country code');
    expect(await notes.textContent()).toContain('Compare needs 2 to 6 countries');
  });

  it('is reached from a country page with "Compare with…"', async () => {
    const page = await open();
    await page.goto(`${stack.baseUrl}/country/MLI`);
    const field = page.getByRole('combobox', { name: 'Compare with…' });
    await field.fill('Burkina Faso');
    await field.press('Enter');
    await page.waitForURL(/\/compare\?iso=MLI,BFA$/);
    await drawTrend(page.getByRole('region', { name: 'Risk over time' }));
  });
});

describe('country page history', () => {
  it('draws risk, static and active over the tier bands and says what drove the latest change', async () => {
    const page = await open();
    await page.goto(`${stack.baseUrl}/country/SDN`);
    const panel = page.getByRole('region', { name: 'Trend' });
    await drawTrend(panel);
    expect(await panel.locator('.recharts-line').count()).toBe(3);
    expect(await panel.locator('.recharts-reference-area').count()).toBe(4);
    await expect
      .poll(() => panel.locator('.driver').textContent())
      .toMatch(/^Latest change: (Active|Risk) /);
    const category = page.getByRole('region', { name: 'Category history' });
    await drawTrend(category);
    await page
      .getByRole('region', { name: 'Event archive' })
      .locator('.archive-event, .empty')
      .first()
      .waitFor();
    await page.screenshot({ path: screenshotPath('history-country'), fullPage: true });
    await panel.screenshot({ path: screenshotPath('history-country-trend') });
    await category.screenshot({ path: screenshotPath('history-country-categories') });
  });
});

describe('search palette', () => {
  it('Ctrl+K and / open it; a common name and Enter open the country; Escape returns focus', async () => {
    const page = await open();
    await page.goto(`${stack.baseUrl}/`);
    await trendPanel(page).waitFor();
    await page.keyboard.press('Control+k');
    const dialog = page.getByRole('dialog', { name: 'Find a country' });
    const input = dialog.getByRole('combobox');
    await input.waitFor();
    expect(await input.evaluate((el) => el === document.activeElement)).toBe(true);
    await input.fill('Ivory Coast');
    await expect.poll(() => dialog.getByRole('option').first().textContent()).toContain('CIV');
    await page.screenshot({ path: screenshotPath('history-palette'), fullPage: false });
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/country\/CIV$/);

    const opener = page.getByRole('button', { name: /Find a country/ });
    await opener.focus();
    await page.keyboard.press('/');
    await dialog.waitFor();
    await input.fill('Burma');
    await expect.poll(() => dialog.getByRole('option').first().textContent()).toContain('MMR');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => opener.evaluate((el) => el === document.activeElement)).toBe(true);
  });
});

describe('themes, phone width and accessibility', () => {
  it('dark theme: overview history, compare and a country page', async () => {
    const page = await open({ colorScheme: 'dark' });
    await page.goto(`${stack.baseUrl}/?table=all&region=Europe`);
    await drawTrend(trendPanel(page));
    await changesPanel(page)
      .getByText(/compared with/)
      .waitFor();
    await page.screenshot({ path: screenshotPath('history-overview-dark'), fullPage: true });
    await page.goto(`${stack.baseUrl}/compare?iso=MLI,NER,BFA,TCD`);
    await drawTrend(page.getByRole('region', { name: 'Risk over time' }));
    await page.screenshot({ path: screenshotPath('history-compare-dark'), fullPage: true });
    await page.goto(`${stack.baseUrl}/country/UKR`);
    await drawTrend(page.getByRole('region', { name: 'Trend' }));
    await page.screenshot({ path: screenshotPath('history-country-dark'), fullPage: true });
  });

  it('fits a 375 px phone: overview, compare, country page and the palette', async () => {
    const page = await open({
      viewport: { width: 375, height: 812 },
      isMobile: true,
      hasTouch: true,
    });
    for (const path of ['/?table=all', '/compare?iso=MLI,NER,BFA', '/country/SDN']) {
      await page.goto(`${stack.baseUrl}${path}`);
      await drawTrend(page);
      expect(await pageOverflow(page), `overflow at ${path}`).toBe(0);
    }
    await page.screenshot({ path: screenshotPath('history-country-375'), fullPage: true });
    await page
      .getByRole('region', { name: 'Trend' })
      .screenshot({ path: screenshotPath('history-country-trend-375') });
    await page.goto(`${stack.baseUrl}/compare?iso=MLI,NER,BFA`);
    await drawTrend(page);
    await page.screenshot({ path: screenshotPath('history-compare-375'), fullPage: true });
    await page.goto(`${stack.baseUrl}/`);
    // Its data in, the trend far below the first screen is not drawn (WhenNear, issue 32): a
    // phone that stays at the top never pays for the chart.
    await trendPanel(page)
      .getByText(/History since/)
      .waitFor();
    expect(await trendPanel(page).locator('.when-near').count()).toBe(1);
    expect(await page.locator('.recharts-line-curve').count()).toBe(0);
    // Printed from there, the paper has the chart (drawn as printing begins): its date ticks
    // ("10 Nov", where the page's other dates carry a year).
    const { text } = await printedPdf(page, 'overview-375-trend');
    expect(text).toMatch(/\b\d{1,2} Nov(?! \d)/);
    await drawTrend(trendPanel(page));
    await page.screenshot({ path: screenshotPath('history-overview-375'), fullPage: true });
    await page.getByRole('button', { name: /Find a country/ }).click();
    await page.getByRole('dialog').getByRole('combobox').fill('Russia');
    await page.getByRole('option').first().waitFor();
    expect(await pageOverflow(page)).toBe(0);
    await page.screenshot({ path: screenshotPath('history-palette-375'), fullPage: false });
  });

  // One test per view, scanned light and then dark on the one load (inEachScheme): the eight
  // scans in one test ran past its minute on a slow renderer (E2E_CPU_THROTTLE=4). Each scan
  // waits until every panel has loaded (no skeleton left), so axe reads the page as drawn, not a
  // loading state.
  for (const path of ['/?table=all', '/compare?iso=MLI,NER', '/country/SDN']) {
    it(`axe finds no serious or critical violation on ${path}, light and dark`, async () => {
      // axe is injected as an inline script, which the app's CSP rightly blocks: this context
      // alone bypasses the CSP, for the scanner.
      const page = await open({ bypassCSP: true });
      await page.goto(`${stack.baseUrl}${path}`);
      await drawTrend(page);
      await waitForPanels(page);
      await inEachScheme(page, async (scheme) => {
        expect(await seriousViolations(page, { coloursOnly: scheme === 'dark' }), scheme).toEqual(
          [],
        );
      });
    });
  }

  it('axe finds no serious or critical violation in the country palette, light and dark', async () => {
    const page = await open({ bypassCSP: true });
    await page.goto(`${stack.baseUrl}/country/SDN`);
    await drawTrend(page);
    await waitForPanels(page);
    await page.getByRole('button', { name: /Find a country/ }).click();
    await page.getByRole('dialog').getByRole('combobox').fill('Mali');
    await page.getByRole('option').first().waitFor();
    await inEachScheme(page, async (scheme) => {
      expect(await seriousViolations(page, { coloursOnly: scheme === 'dark' }), scheme).toEqual([]);
    });
  });
});

describe('event search across countries (issue 19, point 6)', () => {
  it('finds "sanctions" in every country, narrows to one and opens it; a phone fits it', async () => {
    const page = await open();
    await page.goto(`${stack.baseUrl}/`);
    await page.getByRole('link', { name: 'Events', exact: true }).click();
    await page.waitForURL(/\/events$/);
    await page.getByRole('searchbox', { name: 'Headline or source contains' }).fill('sanctions');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/\/events\?q=sanctions$/);
    const results = page.locator('.archive-event');
    await expect.poll(() => results.count()).toBeGreaterThan(1);
    const headlines = await page.locator('.archive-headline').allTextContents();
    expect(headlines.every((h) => /sanctions/i.test(h))).toBe(true);
    // Several countries answer, each named as a link.
    const countries = new Set(await page.locator('.archive-meta a').allTextContents());
    expect(countries.size).toBeGreaterThan(1);
    await page.screenshot({ path: screenshotPath('events-search'), fullPage: true });

    const first = [...countries][0]!;
    // The countries picker (issue 33, point 5): type a name, Enter takes the first match.
    const picker = page.getByRole('combobox', { name: 'Countries' });
    await picker.fill(first);
    await picker.press('Enter');
    await expect
      .poll(() => page.getByRole('list', { name: /^Chosen countries/ }).innerText())
      .toContain(first);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/iso=[A-Z]{3}/);
    await expect
      .poll(async () => new Set(await page.locator('.archive-meta a').allTextContents()))
      .toEqual(new Set([first]));
    await page.locator('.archive-meta a').first().click();
    await page.waitForURL(/\/country\/[A-Z]{3}$/);
  });

  it('fits a 375 px phone and axe finds nothing serious, light and dark', async () => {
    const page = await open({ bypassCSP: true, viewport: { width: 375, height: 800 } });
    await page.goto(`${stack.baseUrl}/events?q=sanctions`);
    await page.locator('.archive-event').first().waitFor();
    expect(await pageOverflow(page)).toBe(0);
    await inEachScheme(page, async (scheme) => {
      expect(await seriousViolations(page, { coloursOnly: scheme === 'dark' }), scheme).toEqual([]);
      await page.screenshot({ path: screenshotPath(`events-375-${scheme}`), fullPage: true });
    });
  });
});
