import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORY_NAMES } from '../../src/shared/categories.js';
import { seriousViolations } from './axe.js';
import {
  launchChromium,
  openPage,
  pageOverflow,
  screenshotPath,
  waitForMap,
  type WatchedPage,
  PAGE_WAIT_MS,
} from './browser.js';
import { startHistoryE2eStack, type HistoryE2eStack } from './history-stack.js';

// Issue 31: the team index on screen. An admin's weights ("Logistics view") and an editor's
// override of one hotspot's tier: the overview's map and hotspot table in the team view, and the
// overridden country's page with the provider's tier beside ours, the reason and the expiry; at
// 1440 and 375 px, axe-clean, nothing cut off.
const DESKTOP = { viewport: { width: 1440, height: 900 }, bypassCSP: true };
const PHONE = {
  viewport: { width: 375, height: 812 },
  isMobile: true,
  hasTouch: true,
  bypassCSP: true,
};
const REASON = 'Our convoys stopped at the border';

let stack: HistoryE2eStack;
let browser: Browser;
const opened: WatchedPage[] = [];
let iso = '';

async function put(path: string, body: unknown): Promise<void> {
  const response = await fetch(`${stack.baseUrl}${path}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', 'if-match': '"0"' },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.text()).toBe(200);
}

beforeAll(async () => {
  stack = await startHistoryE2eStack(4);
  browser = await launchChromium();
  const hotspots = (await (await fetch(`${stack.baseUrl}/api/v1/hotspots?limit=1`)).json()) as {
    hotspots: { iso: string; tier: string }[];
  };
  const first = hotspots.hotspots[0]!;
  iso = first.iso;
  // Every category weighed, some more than others (the names are the API document's).
  await put('/api/index-weights', {
    name: 'Logistics view',
    weights: Object.fromEntries(CATEGORY_NAMES.map((name, i) => [name, (i % 4) + 1])),
  });
  // The stack's clock stands in November 2026.
  const expires = '2026-12-31';
  await put(`/api/overrides/${iso}`, {
    tier: first.tier === 'low' ? 'crit' : 'low',
    reason: REASON,
    expires,
  });
}, 180_000);
afterEach(async () => {
  for (const watched of opened.splice(0)) await watched.page.context().close();
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

async function open(options: object): Promise<Page> {
  const watched = await openPage(browser, options);
  opened.push(watched);
  return watched.page;
}

describe('the team index on screen', () => {
  it.each([
    [1440, DESKTOP],
    [375, PHONE],
  ])('the map, the hotspot table and an overridden country at %s px', async (width, options) => {
    const page = await open(options);
    await page.goto(`${stack.baseUrl}/?index=team`);
    await waitForMap(page);
    await expect
      .poll(() => page.getByRole('button', { name: 'Team index: Logistics view' }).count(), {
        timeout: PAGE_WAIT_MS,
      })
      .toBe(1);
    await expect
      .poll(() => page.getByRole('region', { name: 'Hotspots' }).innerText(), {
        timeout: PAGE_WAIT_MS,
      })
      .toContain('risk and tier are the team index “Logistics view”');
    await page.screenshot({ path: screenshotPath(`team-map-${width}`) });
    await page.getByRole('region', { name: 'Hotspots' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath(`team-hotspots-${width}`) });
    expect(await seriousViolations(page)).toEqual([]);
    expect(await pageOverflow(page)).toBe(0);

    await page.goto(`${stack.baseUrl}/country/${iso}?index=team`);
    const figures = page.getByTestId('team-figures');
    await expect.poll(() => figures.innerText(), { timeout: PAGE_WAIT_MS }).toContain(REASON);
    expect(await figures.innerText()).toMatch(/Provider’s risk: [\d.]+/);
    expect(await figures.innerText()).toMatch(/ends \d+ \w+ \d{4}/);
    await figures.scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath(`team-override-country-${width}`) });
    expect(await seriousViolations(page)).toEqual([]);
    expect(await pageOverflow(page)).toBe(0);

    // Why it moved explains the team index's move, the provider's beside it.
    const why = page.locator('details.why-disclosure');
    await why.locator('summary').click();
    await expect
      .poll(() => why.innerText(), { timeout: PAGE_WAIT_MS })
      .toContain('Team index "Logistics view"');
    expect(await why.innerText()).toContain('The provider’s move: ');
    await why.scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath(`team-why-${width}`) });
    expect(await seriousViolations(page)).toEqual([]);
    expect(await pageOverflow(page)).toBe(0);
  });
});
