import { describe, expect, it } from 'vitest';
import { screenshotPath, waitForMap } from './browser.js';
import { browserSuite } from './suite.js';

/*
 * Issue 32, point 1: the overview and a country page arrive with their first frame rendered by
 * the server, readable with JavaScript off; with it on, the SPA takes the frame's place without
 * a layout shift.
 */
const suite = browserSuite();
const PHONE = { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true };

describe('the first frame, rendered by the server (issue 32, point 1)', () => {
  it('the overview reads the global index and the hotspots with JavaScript off', async () => {
    const { page } = await suite.open({ ...PHONE, javaScriptEnabled: false });
    await page.goto(`${suite.stack.baseUrl}/`);
    const index = await page.getByTestId('frame-index').textContent();
    expect(index).toMatch(/^\d+\.\d\d$/);
    const rows = page.locator('.first-frame-hotspots tbody tr');
    expect(await rows.count()).toBe(20);
    const first = rows.first().getByRole('link');
    expect(await first.getAttribute('href')).toMatch(/^\/country\/[A-Z]{3}$/);
    expect(await page.locator('.first-frame-map circle').count()).toBeGreaterThan(10);
    expect(await page.getByRole('heading', { name: 'Moved most' }).count()).toBe(1);
    await page.screenshot({
      path: screenshotPath('first-frame-nojs-overview-375'),
      fullPage: true,
    });
  });

  it('a country page reads its header, categories and events with JavaScript off', async () => {
    const { page } = await suite.open({ ...PHONE, javaScriptEnabled: false });
    await page.goto(`${suite.stack.baseUrl}/country/UKR`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toMatch(/Ukraine\s+UKR/);
    expect(await page.getByRole('heading', { name: 'Categories' }).count()).toBe(1);
    expect(await page.locator('.first-frame table tbody tr').count()).toBeGreaterThan(3);
    expect(await page.getByRole('heading', { name: 'Events' }).count()).toBe(1);
    await page.screenshot({ path: screenshotPath('first-frame-nojs-country-375') });
  });

  it('with JavaScript the SPA takes the frame’s place, and nothing shifts', async () => {
    const { page } = await suite.open(PHONE);
    await page.addInitScript(`
      window.__shift = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shift += e.value;
      }).observe({ type: 'layout-shift', buffered: true });
    `);
    await page.goto(`${suite.stack.baseUrl}/`);
    await waitForMap(page);
    expect(await page.locator('#first-frame').count()).toBe(0);
    expect(await page.locator('#root.behind-first-frame').count()).toBe(0);
    expect(await page.getByTestId('global-index').isVisible()).toBe(true);
    const shift = await page.evaluate(() => (window as unknown as { __shift: number }).__shift);
    expect(shift).toBeLessThan(0.01);
  });
});
