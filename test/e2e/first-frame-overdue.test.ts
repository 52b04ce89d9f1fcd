import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshotPath, waitForMap } from './browser.js';
import { browserSuite } from './suite.js';

/*
 * Issue 32, points 1 and 3: when the newest batch is overdue, the server's first frame says so
 * as the SPA does (the status banner, "overdue" in the header), and the SPA takes its place
 * without moving anything. The frame without the banner was a stale page presented as current,
 * and the SPA's banner pushed its whole first screen 85 px down when it took over.
 */
const DAY_MS = 24 * 60 * 60_000;
// The data service's clock two days behind ours: its newest batch is two days old, overdue by
// the BFF's clock and the browser's alike.
const suite = browserSuite({ demo: { now: () => Date.now() - 2 * DAY_MS } });
const PHONE = { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true };
const LANDMARKS = [
  '.app-bar',
  '.status-banner',
  '.global-index-number',
  '.global-facts',
  '.changes-strip',
  '.map-panel h2',
  '.map-canvas',
];

describe('the first frame of an overdue batch', () => {
  it('says the batch is overdue in the SPA’s words and places, and nothing moves at the handover', async () => {
    const url = `${suite.stack.baseUrl}/`;
    const boxes = (page: Page) =>
      page.evaluate(
        (selectors) =>
          selectors.map((selector) => {
            const box = document.querySelector(selector)?.getBoundingClientRect();
            return box
              ? `${selector} ${Math.round(box.top)},${Math.round(box.height)}`
              : `${selector} missing`;
          }),
        LANDMARKS,
      );
    // The frame as painted while the scripts load.
    const framed = await suite.open(PHONE);
    await framed.page.route(/\/assets\/.*\.js$/, (route) => route.abort());
    await framed.page.goto(url);
    expect(await framed.page.locator('#first-frame').count()).toBe(1);
    expect(await framed.page.locator('.status-banner').count()).toBe(1);
    const frameBanner = await framed.page.locator('.status-banner').innerText();
    expect(frameBanner).toMatch(/batch is overdue/);
    expect(await framed.page.locator('.global-facts .overdue').innerText()).toMatch(
      /^\d\d:\d\d UTC · overdue$/,
    );
    const before = await boxes(framed.page);

    const { page } = await suite.open(PHONE);
    await page.goto(url);
    await waitForMap(page);
    expect(await page.locator('#first-frame').count()).toBe(0);
    expect(await page.locator('.status-banner').innerText()).toBe(frameBanner);
    expect(await boxes(page)).toEqual(before);
    await framed.page.screenshot({ path: screenshotPath('first-frame-overdue-375') });
  });
});
