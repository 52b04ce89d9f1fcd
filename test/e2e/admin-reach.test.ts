import { beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './axe.js';
import { screenshotPath } from './browser.js';
import { browserSuite } from './suite.js';

/*
 * The admin's feeds and embeds page and an embed's own page (issue 34) in Chromium at 1440 and
 * 375 px: axe-clean, screenshots under test-results/ to look at.
 */
const suite = browserSuite();
let embedPath = '';

beforeAll(async () => {
  await suite.stack.bff.historyIdle();
  const post = (path: string, body: object) =>
    fetch(`${suite.stack.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  await post('/api/feed-tokens', {
    name: 'Finance sheet',
    feeds: ['countries'],
    expires_in_days: 30,
  });
  const made = await post('/api/embeds', {
    name: 'Intranet card',
    view: 'country',
    subject: 'SDN',
    origin: 'https://intranet.example.com',
    expires_in_days: 30,
  });
  embedPath = new URL(((await made.json()) as { url: string }).url).pathname;
});

const SIZES = [
  ['1440', { viewport: { width: 1440, height: 900 } }],
  ['375', { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true }],
] as const;

describe('/admin/reach and an embed page', () => {
  for (const [width, size] of SIZES) {
    it(`have no axe violation at ${width} px`, async () => {
      // axe is injected as an inline script, which the CSP rightly blocks: bypassed for the scan.
      const { page } = await suite.open({ ...size, bypassCSP: true });
      await page.goto(`${suite.stack.baseUrl}/admin/reach`);
      await page.getByRole('row', { name: /Finance sheet/ }).waitFor();
      await page.getByRole('row', { name: /Intranet card/ }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: screenshotPath(`admin-reach-${width}`), fullPage: true });
      await page.goto(`${suite.stack.baseUrl}${embedPath}`);
      await page.getByRole('heading', { name: /Sudan/ }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: screenshotPath(`embed-country-${width}`), fullPage: true });
    });
  }
});
