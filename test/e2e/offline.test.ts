import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations } from './axe.js';
import { PHONE_375, screenshotPath, waitForMap, waitForPanels } from './browser.js';
import { browserSuite } from './suite.js';

/*
 * Issue 32, point 3: after one visit the overview and a visited country page open with no
 * network, from the service worker's copy, saying plainly that they are offline and from which
 * batch (in the reader's time zone); sign-out removes every copy. Signed in with a dashboard
 * token, so there is a sign-out.
 */
const suite = browserSuite({ auth: 'token' });
const TIME_ZONE = 'Asia/Tokyo';
const OFFLINE = { ...PHONE_375, serviceWorkers: 'allow', timezoneId: TIME_ZONE } as const;

/** Resolves when the worker controls the page and keeps an answer whose URL contains `part`. */
async function keptByWorker(page: Page, part: string): Promise<void> {
  await expect
    .poll(() =>
      page.evaluate(async (urlPart) => {
        if (!navigator.serviceWorker.controller) return false;
        if (!(await caches.has('api-answers'))) return false;
        const kept = await (await caches.open('api-answers')).keys();
        return kept.some((request) => request.url.includes(urlPart));
      }, part),
    )
    .toBe(true);
}

/** The batch time as the banner must write it: the reader's zone (Tokyo here), named. */
function inTokyo(iso: string): string {
  return new Intl.DateTimeFormat('en-US', {
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
    timeZone: TIME_ZONE,
  }).format(new Date(iso));
}

describe('installable and offline (issue 32, point 3)', () => {
  it('opens the overview and a visited country page offline, saying from which batch', async () => {
    const { page } = await suite.open(OFFLINE);
    const manifest = await page.request.get(`${suite.stack.baseUrl}/manifest.webmanifest`);
    expect(await manifest.json()).toMatchObject({ display: 'standalone', start_url: '/' });

    await page.goto(`${suite.stack.baseUrl}/`);
    await waitForMap(page);
    await keptByWorker(page, '/api/v1/hotspots');
    const index = await page.getByTestId('global-index').textContent();
    const status = (await (await page.request.get(`${suite.stack.baseUrl}/api/status`)).json()) as {
      as_of: string;
    };
    expect(await page.locator('.offline-banner').count()).toBe(0);
    await page.screenshot({ path: screenshotPath('offline-before-overview-375-light') });

    await page.goto(`${suite.stack.baseUrl}/country/UKR`);
    await page.getByRole('heading', { level: 1, name: /Ukraine/ }).waitFor();
    await keptByWorker(page, '/api/v1/country/UKR');

    await page.context().setOffline(true);
    await page.goto(`${suite.stack.baseUrl}/`);
    const banner = page.getByRole('status').filter({ hasText: 'Offline:' });
    await banner.waitFor();
    expect(await banner.textContent()).toContain(
      `Offline: showing the ${inTokyo(status.as_of)} batch.`,
    );
    await expect.poll(() => page.getByTestId('global-index').textContent()).toBe(index);
    await waitForPanels(page);
    await page.screenshot({ path: screenshotPath('offline-overview-375'), fullPage: true });
    expect(await axeViolations(page)).toEqual([]);

    await page.goto(`${suite.stack.baseUrl}/country/UKR`);
    await page.getByRole('heading', { level: 1, name: /Ukraine/ }).waitFor();
    expect(await banner.textContent()).toContain(`${inTokyo(status.as_of)} batch.`);
    await page.screenshot({ path: screenshotPath('offline-country-375') });

    await page.context().setOffline(false);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: /Ukraine/ }).waitFor();
    expect(await page.locator('.offline-banner').count()).toBe(0);
  });

  it('says so in the dark scheme too', async () => {
    const { page } = await suite.open({ ...OFFLINE, colorScheme: 'dark' });
    await page.goto(`${suite.stack.baseUrl}/`);
    await waitForMap(page);
    await keptByWorker(page, '/api/v1/hotspots');
    await page.screenshot({ path: screenshotPath('offline-before-overview-375-dark') });
    await page.context().setOffline(true);
    await page.reload();
    await page.locator('.offline-banner').waitFor();
    await waitForMap(page);
    // As in the light case: axe on the page drawn, not mid-load (the loaded run found the
    // skip links outside any landmark while the panels were still arriving).
    await waitForPanels(page);
    await page.screenshot({ path: screenshotPath('offline-overview-375-dark') });
    expect(await axeViolations(page)).toEqual([]);
  });

  it('sign-out deletes the worker’s caches and the worker', async () => {
    const { page } = await suite.open(OFFLINE);
    await page.goto(`${suite.stack.baseUrl}/`);
    await waitForMap(page);
    await keptByWorker(page, '/api/v1/hotspots');
    expect(await page.evaluate(async () => (await caches.keys()).length)).toBeGreaterThan(0);

    await page.locator('.user-menu summary').click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    expect(await page.evaluate(() => caches.keys())).toEqual([]);
    expect(
      await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length),
    ).toBe(0);
  });
});
