import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  ADVERSARIAL_HEADLINE,
  ADVERSARIAL_ISO,
  ADVERSARIAL_URL,
} from '../../src/demo-upstream/server.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { launchChromium, openPage } from './browser.js';

// The demo upstream's hostile event: an HTML headline and a javascript: URL in one country's
// newest event. It must show as text, run nothing and link nowhere.
let stack: Stack;
let browser: Browser;

beforeAll(async () => {
  stack = await startStack({
    demo: { adversarialEvents: true },
    config: { history: { databaseUrl: null, retentionDays: null } },
  });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

it('an HTML headline with a javascript: URL neither runs script nor becomes a link', async () => {
  const { page, errors, foreignRequests, close } = await openPage(browser);
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goto(`${stack.baseUrl}/country/${ADVERSARIAL_ISO}`);
  const headline = page.locator('.event-headline', { hasText: '<img src=x' });
  await headline.waitFor();

  expect(await headline.textContent()).toBe(ADVERSARIAL_HEADLINE);
  expect(await headline.locator('a').count()).toBe(0);
  expect(await page.locator('.event-list img, .event-list b').count()).toBe(0);
  expect(await page.locator(`a[href^="javascript:"]`).count()).toBe(0);
  expect(await page.content()).not.toContain(`href="${ADVERSARIAL_URL}"`);
  // The other events still link out normally.
  expect(await page.locator('.event-headline a[target="_blank"]').count()).toBeGreaterThan(0);

  await headline.click();
  await page.keyboard.press('Enter');
  expect(
    await page.evaluate(() => (window as unknown as { __xss?: number }).__xss),
  ).toBeUndefined();
  expect(dialogs).toEqual([]);
  expect(page.url()).toBe(`${stack.baseUrl}/country/${ADVERSARIAL_ISO}`);
  expect(errors).toEqual([]);
  expect(foreignRequests).toEqual([]);
  await close();
});
