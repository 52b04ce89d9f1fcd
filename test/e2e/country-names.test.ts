import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshotPath } from './browser.js';
import { browserSuite } from './suite.js';

// Issue 19, point 7: one name for a country on every screen; the official one on its own page.
const suite = browserSuite();
const DESKTOP = { viewport: { width: 1440, height: 900 } };
const PHONE = { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true };

/** The demo upstream's ISO long names and the names the dashboard shows for them. */
const LONG = ['Russian Federation', 'Syrian Arab Republic', 'Iran, Islamic Republic of'];
const SHOWN = ['Russia', 'Syria', 'Iran'];

let listId = '';

beforeAll(async () => {
  await suite.stack.bff.historyIdle();
  const res = await fetch(`${suite.stack.baseUrl}/api/watchlists`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Names', countries: ['RUS', 'SYR', 'IRN'] }),
  });
  expect(res.status).toBe(201);
  listId = ((await res.json()) as { watchlist: { id: string } }).watchlist.id;
});

/** The long names a screen's main region still shows (text and select options alike). */
async function longNamesOn(page: Page): Promise<string[]> {
  const text = await page.locator('main').evaluate((main) => {
    const options = [...main.querySelectorAll('option')].map((o) => `${o.textContent} ${o.value}`);
    return `${(main as HTMLElement).innerText}\n${options.join('\n')}`;
  });
  return LONG.filter((name) => text.includes(name));
}

describe('one name for a country everywhere (issue 19, point 7)', () => {
  const screens: [string, () => string, string][] = [
    ['All countries', () => '/?table=all', 'table'],
    ['a watchlist', () => `/watchlists/${listId}`, 'table'],
    ['its brief', () => `/brief/${listId}`, '.brief-country'],
    ['Compare', () => '/compare?iso=RUS,SYR,IRN', 'table'],
    // The event search's countries picker (issue 33, point 5): the chosen countries' chips.
    ['Events', () => '/events?iso=RUS,SYR,IRN', '.picker-chips li'],
  ];
  for (const [screen, path, ready] of screens) {
    it(`${screen} shows ${SHOWN.join(', ')}, never the ISO long names`, async () => {
      const { page } = await suite.open(DESKTOP);
      await page.goto(`${suite.stack.baseUrl}${path()}`);
      await page.locator(`main ${ready}`).first().waitFor({ state: 'attached' });
      await expect
        .poll(() => page.locator('main').evaluate((m) => (m as HTMLElement).innerText))
        .toContain('Russia');
      expect(await longNamesOn(page)).toEqual([]);
      await page.screenshot({
        path: screenshotPath(`names-${screen.replace(/\W+/g, '-').toLowerCase()}`),
      });
    });
  }

  it('search lists "Russia RUS"; the country page says Russia and gives the official name', async () => {
    const { page } = await suite.open(PHONE);
    await page.goto(`${suite.stack.baseUrl}/watchlists`);
    await page.getByRole('heading', { name: 'Watchlists', level: 1 }).waitFor();
    await page.keyboard.press('Control+k');
    const dialog = page.getByRole('dialog', { name: 'Find a country' });
    await dialog.getByRole('combobox').fill('russ');
    const first = dialog.getByRole('option').first();
    await expect.poll(() => first.locator('.palette-name').textContent()).toBe('Russia RUS');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/country\/RUS$/);
    const heading = page.getByRole('heading', { level: 1 });
    await expect.poll(() => heading.textContent()).toMatch(/^Russia RUS/);
    expect(await page.locator('main .formal-name').textContent()).toContain('Russian Federation');
    await page.screenshot({ path: screenshotPath('names-country-375') });
  });
});
