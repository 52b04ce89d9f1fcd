import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RESCALED_METHODOLOGY_VERSION } from '../../src/demo-upstream/method-change.js';
import { seriousViolations } from './axe.js';
import {
  DESKTOP_1440,
  launchChromium,
  openPage,
  pageOverflow,
  PHONE_375,
  screenshotPath,
  type WatchedPage,
  PAGE_WAIT_MS,
} from './browser.js';
import { startHistoryE2eStack, type HistoryE2eStack } from './history-stack.js';

// Issue 31: the provider changed its method with the newest of 4 demo batches. A brief across
// it names the method beside its batch id, says plainly that scores are not comparable across
// it and carries the country's notes; compare says so under its key numbers; an editor edits
// and deletes a note on the country page. At 1440 and 375 px, axe-clean, nothing cut off.
const WIDTHS = [
  [1440, DESKTOP_1440],
  [375, PHONE_375],
] as const;

let stack: HistoryE2eStack;
let browser: Browser;
const opened: WatchedPage[] = [];
let isos: string[] = [];

async function writeNote(iso: string, text: string): Promise<void> {
  const written = await fetch(`${stack.baseUrl}/api/notes/${iso}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text }),
  });
  expect(written.status).toBe(201);
}

beforeAll(async () => {
  stack = await startHistoryE2eStack(4, { methodChangeLast: true });
  browser = await launchChromium();
  const hotspots = (await (await fetch(`${stack.baseUrl}/api/v1/hotspots?limit=2`)).json()) as {
    hotspots: { iso: string }[];
  };
  isos = hotspots.hotspots.map((h) => h.iso);
  await writeNote(isos[0] ?? '', 'Brief note: the Lagos route is closed until further notice.');
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

async function checked(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: screenshotPath(name) });
  expect(await seriousViolations(page)).toEqual([]);
  expect(await pageOverflow(page)).toBe(0);
}

describe('across a method change', () => {
  it.each(WIDTHS)(
    'a brief names the method, the caveat and the notes at %s px',
    async (width, options) => {
      const page = await open(options);
      await page.goto(`${stack.baseUrl}/brief?iso=${isos[0]}`);
      const citation = page.locator('.brief-citation');
      await expect
        .poll(() => citation.innerText(), { timeout: PAGE_WAIT_MS })
        .toContain(`method ${RESCALED_METHODOLOGY_VERSION}`);
      const head = page.locator('.brief-head').getByRole('note');
      expect(await head.innerText()).toContain(
        `method changed from ggri-m 3.2 to ${RESCALED_METHODOLOGY_VERSION}`,
      );
      expect(await head.innerText()).toContain('scores are not comparable across it');
      const notes = page.locator('.brief-notes');
      expect(await notes.innerText()).toContain('the Lagos route is closed');
      await checked(page, `method-brief-${width}`);
      await notes.scrollIntoViewIfNeeded();
      await page.screenshot({ path: screenshotPath(`method-brief-notes-${width}`) });
    },
  );

  it.each(WIDTHS)(
    'compare counts within the new method and says so at %s px',
    async (width, options) => {
      const page = await open(options);
      await page.goto(`${stack.baseUrl}/compare?iso=${isos.join(',')}`);
      const numbers = page.getByRole('region', { name: 'Key numbers table' });
      await expect
        .poll(() => numbers.getByRole('note').innerText(), { timeout: PAGE_WAIT_MS })
        .toContain('Δ risk is counted within the new method only');
      await numbers.scrollIntoViewIfNeeded();
      await checked(page, `method-compare-${width}`);
    },
  );

  it.each(WIDTHS)('an editor edits, then deletes a note at %s px', async (width, options) => {
    const iso = isos[1] ?? '';
    const text = `Note ${width}: warehouse inspected`;
    await writeNote(iso, text);
    const page = await open(options);
    await page.goto(`${stack.baseUrl}/country/${iso}`);
    const panel = page.getByRole('region', { name: 'Our notes' });
    const item = panel.getByRole('listitem').filter({ hasText: text });
    await item.getByRole('button', { name: /^Edit/ }).click();
    const box = item.getByRole('textbox', { name: 'Edit the note' });
    await box.fill(`${text}, roof repaired`);
    await checked(page, `note-editing-${width}`);
    await item.getByRole('button', { name: 'Save' }).click();
    const edited = panel.getByRole('listitem').filter({ hasText: `${text}, roof repaired` });
    await expect.poll(() => edited.count(), { timeout: PAGE_WAIT_MS }).toBe(1);
    await edited.getByRole('button', { name: /^Delete/ }).click();
    await edited.scrollIntoViewIfNeeded();
    await checked(page, `note-delete-asked-${width}`);
    await edited.getByRole('button', { name: 'Yes, delete it' }).click();
    await expect
      .poll(() => panel.getByRole('listitem').filter({ hasText: text }).count(), {
        timeout: PAGE_WAIT_MS,
      })
      .toBe(0);
    // The audit log has both changes.
    const audit = (await (
      await fetch(`${stack.baseUrl}/api/audit?action=country%20note*&limit=50`)
    ).json()) as { entries?: { action: string }[] };
    const actions = (audit.entries ?? []).map((entry) => entry.action);
    expect(actions).toEqual(
      expect.arrayContaining(['country note edited', 'country note deleted']),
    );
  });
});
