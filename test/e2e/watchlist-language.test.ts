import { beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './axe.js';
import { pageOverflow, screenshotPath } from './browser.js';
import { browserSuite } from './suite.js';

// Issue 34: a watchlist's language picker (what its e-mails and webhooks are written in), at a
// desk's and a phone's width, axe-clean, and saved with the list.
const suite = browserSuite();

const PHONE = { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true };
const DESKTOP = { viewport: { width: 1440, height: 900 } };

interface StoredList {
  id: string;
  name: string;
  language?: string;
}

async function sampleList(): Promise<StoredList> {
  const res = await fetch(`${suite.stack.baseUrl}/api/watchlists`);
  const lists = ((await res.json()) as { watchlists: StoredList[] }).watchlists;
  const sample = lists.find((l) => l.name.startsWith('Sample'));
  if (!sample) throw new Error('the demo sample list was not made');
  return sample;
}

beforeAll(async () => {
  await suite.stack.bff.historyIdle();
  await suite.stack.bff.demoWatchlist();
});

describe("a watchlist's language", () => {
  it.each([
    ['1440', DESKTOP],
    ['375', PHONE],
  ])('is picked by its own name at %s px, axe-clean, and saved', async (width, profile) => {
    const sample = await sampleList();
    const { page } = await suite.open({ ...profile, bypassCSP: true });
    await page.goto(`${suite.stack.baseUrl}/watchlists/${sample.id}`);
    const picker = page.getByRole('combobox', { name: 'Language of e-mails and webhooks' });
    await picker.waitFor();
    const box = await picker.boundingBox();
    expect(box?.height ?? 0).toBeGreaterThanOrEqual(24);
    expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
    expect(await axeViolations(page)).toEqual([]);
    const chosen = width === '1440' ? 'ar' : 'fr';
    await picker.selectOption(chosen);
    await picker.scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath(`watchlist-language-${width}`) });
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await sampleList()).language).toBe(chosen);
  });
});
