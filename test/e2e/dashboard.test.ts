import { describe, expect, it } from 'vitest';
import { ABSENT_ISOS } from '../../src/demo-upstream/server.js';
import { pageOverflow, screenshotPath, spaDrawn, waitForMap, waitForPanels } from './browser.js';
import { browserSuite } from './suite.js';

// The built SPA (npx vite build) served by the BFF on a demo upstream, in Debian's Chromium.
const suite = browserSuite();

describe('overview', () => {
  it('shows the global index, the map with shapes and markers, the table and the demo badge', async () => {
    const { page } = await suite.open();
    // What the page showed when each bench mark was set: a mark must not come before its content.
    await page.addInitScript(() => {
      const seen: Record<string, unknown> = {};
      Object.assign(window, { grdMarkSeen: seen });
      const mark = performance.mark.bind(performance);
      performance.mark = (name: string, options?: PerformanceMarkOptions) => {
        seen[name] = {
          index: document.querySelector('[data-testid="global-index"]')?.textContent ?? null,
          shapes: document.querySelectorAll('.world-map path.shape-data').length,
        };
        return mark(name, options);
      };
      // The first render waits for the page's data (app/start-page.ts): what it put on screen.
      new MutationObserver((_, observer) => {
        const root = document.getElementById('root');
        if (!root || root.childElementCount === 0) return;
        observer.disconnect();
        seen.firstRender = {
          index: root.querySelector('[data-testid="global-index"]')?.textContent ?? null,
          tableRows: root.querySelectorAll('.hotspot-table tbody tr').length,
        };
        seen.firstRenderAt = performance.now();
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(`${suite.stack.baseUrl}/`);
    const index = page.getByTestId('global-index');
    await expect.poll(() => index.textContent()).toMatch(/^\d{1,3}\.\d{2}$/);
    await waitForMap(page, 20);
    expect(await page.locator('.world-map path.shape').count()).toBe(176);
    expect(await page.locator('.world-map path.shape-data').count()).toBeGreaterThan(150);
    // The table comes in the render after the first paint (AfterFirstPaint): wait for it.
    await expect.poll(() => page.getByRole('table').locator('tbody tr').count()).toBe(20);
    await expect.poll(() => page.getByText('Demo data').first().isVisible()).toBe(true);
    // No stripe across the map: no shape is wider than half the world.
    const widest = await page.$$eval('.world-map path.shape', (paths) =>
      Math.max(...paths.map((p) => (p as SVGGraphicsElement).getBBox().width)),
    );
    const mapWidth = await page.locator('.map-canvas').evaluate((el) => el.clientWidth);
    expect(widest).toBeLessThan(mapWidth / 2);
    // The markers' leader lines are drawn over the shapes (in one SVG, what comes last is drawn
    // last).
    const order = await page.$$eval('.world-map .leaflet-overlay-pane path', (paths) =>
      paths.map((p) => (p.classList.contains('shape') ? 's' : 'o')).join(''),
    );
    expect(order).toMatch(/^s{176}o+$/);
    // User-timing marks that `npm run bench` reads for "time to map and global index" (each
    // set after the frame showing it was painted, so awaited).
    await expect
      .poll(() =>
        page.evaluate(() =>
          ['grd:global-index-drawn', 'grd:map-drawn', 'grd:hotspot-table-drawn'].map(
            (name) => performance.getEntriesByName(name, 'mark').length,
          ),
        ),
      )
      .toEqual([1, 1, 1]);
    const seen = await page.evaluate(
      () => (window as unknown as { grdMarkSeen: object }).grdMarkSeen,
    );
    expect(seen).toEqual({
      // The data was preloaded with the HTML; the map's chunks may miss the wait on a busy machine.
      // The table, below the map, comes in the render after the first (AfterFirstPaint).
      firstRender: { index: expect.stringMatching(/^\d/), tableRows: 0 },
      firstRenderAt: expect.any(Number),
      'grd:global-index-drawn': expect.objectContaining({ index: expect.stringMatching(/^\d/) }),
      'grd:map-drawn': expect.objectContaining({ shapes: expect.any(Number) }),
      'grd:hotspot-table-drawn': expect.anything(),
    });
    const shapesAtMark = (seen as Record<string, { shapes: number }>)['grd:map-drawn']?.shapes;
    expect(shapesAtMark).toBeGreaterThan(150);
    // The history panels' chunks are asked for after the first render, not during it.
    await waitForPanels(page);
    const historyChunks = await page.evaluate(() =>
      (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((e) => /\/assets\/(global-trend-panel|changes-panel)-[^/]+\.js$/.test(e.name))
        .map((e) => e.startTime),
    );
    expect(historyChunks).toHaveLength(2);
    const { firstRenderAt } = seen as { firstRenderAt: number };
    for (const start of historyChunks) expect(start).toBeGreaterThan(firstRenderAt);
    await page.screenshot({ path: screenshotPath('overview'), fullPage: true });
  });

  it('a tier filter changes the URL and the table', async () => {
    const { page } = await suite.open();
    await page.goto(`${suite.stack.baseUrl}/`);
    await page.getByRole('table').locator('tbody tr').first().waitFor();
    await page
      .getByRole('group', { name: 'Tier' })
      .getByRole('checkbox', { name: 'Critical' })
      .check();
    await page.waitForURL(/\?tier=crit$/);
    await expect
      .poll(async () => {
        const tiers = await page.locator('.hotspot-table tbody .tier-badge').allTextContents();
        return tiers.length > 0 && tiers.every((t) => t === 'Critical');
      })
      .toBe(true);
    // The markers follow the table.
    const rows = await page.locator('.hotspot-table tbody tr').count();
    await waitForMap(page, rows);
    expect(await page.locator('.hotspot-marker:not(.tier-crit)').count()).toBe(0);
  });

  it('clicking a marker opens the country page; Enter on a focused marker does too', async () => {
    const { page } = await suite.open();
    await page.goto(`${suite.stack.baseUrl}/`);
    await waitForMap(page, 20);
    const marker = page.locator('.hotspot-marker').last(); // the highest risk is drawn last
    const name = (await marker.textContent())!.split(':')[0]!;
    await marker.click();
    await page.waitForURL(/\/country\/[A-Z]{3}$/);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toContain(name);

    await page.goBack();
    await waitForMap(page, 20);
    await page.locator('.hotspot-marker').first().focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/country\/[A-Z]{3}$/);
  });

  it('hover on a table row prefetches the country, so the page shows without a new request', async () => {
    const { page } = await suite.open();
    const countryRequests: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/v1/country/')) countryRequests.push(r.url());
    });
    await page.goto(`${suite.stack.baseUrl}/`);
    // The server's first frame has the same table: hovering its row prefetches nothing (seen in
    // CI, where the SPA came after the hover).
    await spaDrawn(page);
    const link = page.getByRole('table').getByRole('link').nth(2);
    const href = (await link.getAttribute('href')) ?? '';
    const iso = href.split('/').pop() ?? '';
    // Only this country's requests: while the panels above load, the table may move under a
    // resting mouse pointer, which hovers (and prefetches) a neighbouring row too.
    const forIso = (): string[] => countryRequests.filter((url) => url.endsWith(`/${iso}`));
    await link.hover();
    await expect.poll(() => forIso().length).toBe(1);
    await link.click();
    await page.getByTestId('country-risk').waitFor();
    expect(page.url()).toContain(href);
    expect(forIso()).toHaveLength(1);
  });
});

describe('country page', () => {
  it('a deep link loads directly and shows the same after a reload', async () => {
    const { page } = await suite.open();
    await page.goto(`${suite.stack.baseUrl}/country/SDN`);
    const heading = page.getByRole('heading', { level: 1 });
    await expect.poll(() => heading.textContent()).toContain('Sudan');
    const risk = await page.getByTestId('country-risk').textContent();
    const events = await page.locator('.event').count();
    expect(events).toBeGreaterThan(0);
    await page.locator('.categories-chart .bar-active').first().waitFor();
    await page.locator('.locator-map path.shape-own').waitFor();
    // The small map draws Sudan's neighbours, not the world's 176 shapes.
    const drawn = await page.locator('.locator-map path.shape').count();
    expect(drawn).toBeGreaterThan(5);
    expect(drawn).toBeLessThan(176 / 2);
    // The mark `npm run bench` reads for a country page: set once, after its header is painted.
    await expect
      .poll(() =>
        page.evaluate(
          () => performance.getEntriesByName('grd:country-header-drawn', 'mark').length,
        ),
      )
      .toBe(1);
    await waitForPanels(page);
    await page.screenshot({ path: screenshotPath('country'), fullPage: true });

    await page.reload();
    await expect.poll(() => heading.textContent()).toContain('Sudan');
    expect(await page.getByTestId('country-risk').textContent()).toBe(risk);
    await expect.poll(() => page.locator('.event').count()).toBe(events);
  });

  it('a country not in the data shows the 404 message with a way back', async () => {
    const absent = ABSENT_ISOS.at(-1)!;
    const { page } = await suite.open({}, [`404 /api/v1/country/${absent}`]);
    await page.goto(`${suite.stack.baseUrl}/country/${absent}`);
    await page
      .getByText(/is not in the current data \(low baseline or no recent news\)\.$/)
      .waitFor();
    await page.getByRole('link', { name: '← Back to the overview' }).click();
    await page.waitForURL(`${suite.stack.baseUrl}/`);
  });

  it('a malformed code and an unknown page say so', async () => {
    const { page } = await suite.open();
    await page.goto(`${suite.stack.baseUrl}/country/12X`);
    await page.getByRole('heading', { name: 'Not a valid ISO country code' }).waitFor();
    await page.goto(`${suite.stack.baseUrl}/no/such/page`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
  });
});

describe('themes, small screens, accessibility', () => {
  it('follows a dark system theme', async () => {
    const { page } = await suite.open({ colorScheme: 'dark' });
    await page.goto(`${suite.stack.baseUrl}/`);
    await waitForMap(page);
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const [r, g, b] = background.match(/\d+/g)!.map(Number);
    expect(r! + g! + b!).toBeLessThan(120);
    await waitForPanels(page);
    await page.screenshot({ path: screenshotPath('overview-dark'), fullPage: true });
    await page.goto(`${suite.stack.baseUrl}/country/UKR`);
    await page.locator('.categories-chart .bar-active').first().waitFor();
    await page.screenshot({ path: screenshotPath('country-dark'), fullPage: true });
  });

  it('fits a 375 px phone without horizontal overflow', async () => {
    const { page } = await suite.open({
      viewport: { width: 375, height: 812 },
      isMobile: true,
      hasTouch: true,
    });
    await page.goto(`${suite.stack.baseUrl}/?tier=crit,high&limit=30`);
    await waitForMap(page);
    // Every panel drawn (the trend chart loads after the map), then measured and shown.
    await waitForPanels(page);
    expect(await pageOverflow(page)).toBe(0);
    await page.screenshot({ path: screenshotPath('overview-375'), fullPage: true });
    await page.goto(`${suite.stack.baseUrl}/country/UKR`);
    await page.locator('.event').first().waitFor();
    expect(await pageOverflow(page)).toBe(0);
    await page.screenshot({ path: screenshotPath('country-375'), fullPage: true });
  });
});
