import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatUtcDateTime } from '../../src/client/lib/format.js';
import {
  launchChromium,
  openPage,
  screenshotPath,
  waitForMap,
  waitForPanels,
  type WatchedPage,
} from './browser.js';
import { printedPdf } from './print-pdf.js';
import { startHistoryE2eStack, type HistoryE2eStack } from './history-stack.js';

// Issue 19, point 11: the overview and the brief on paper, printed to PDF by Chromium and read
// back with poppler's pdftotext (page images in test-results/print-*.png to look at).
const BATCHES = 6;
const DESKTOP = { viewport: { width: 1440, height: 900 } };
/** A4's width at 96 dpi, and print.css's 12 mm page margin. */
const A4_WIDTH_PX = 794;
const MARGIN_PX = 45;

let stack: HistoryE2eStack;
let browser: Browser;
let batchTime: string;
const opened: WatchedPage[] = [];

beforeAll(async () => {
  stack = await startHistoryE2eStack(BATCHES);
  browser = await launchChromium();
  const batch = (await (await fetch(`${stack.baseUrl}/api/countries`)).json()) as { as_of: string };
  batchTime = formatUtcDateTime(batch.as_of);
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});
afterEach(async () => {
  for (const watched of opened.splice(0)) {
    expect(watched.foreignRequests, 'requests to non-loopback hosts').toEqual([]);
    expect(watched.errors, 'page errors').toEqual([]);
    expect(watched.httpErrors, 'HTTP errors').toEqual([]);
    await watched.close();
  }
});

async function open(): Promise<Page> {
  const watched = await openPage(browser, DESKTOP);
  opened.push(watched);
  return watched.page;
}

/** How much of the map's width the markers span, from the leftmost centre to the rightmost. */
function markerSpanShare(page: Page): Promise<number> {
  return page.evaluate(() => {
    const frame = document.getElementById('world-map')!.getBoundingClientRect();
    const xs = [...document.querySelectorAll('.world-map .hotspot-marker')].map((marker) => {
      const box = marker.getBoundingClientRect();
      return box.left + box.width / 2;
    });
    return (Math.max(...xs) - Math.min(...xs)) / frame.width;
  });
}

/** Markers whose centre lies inside the map's box, and how many markers there are. */
function markersInsideMap(page: Page): Promise<{ inside: number; all: number }> {
  return page.evaluate(() => {
    const frame = document.getElementById('world-map')!.getBoundingClientRect();
    const markers = [...document.querySelectorAll('.world-map .hotspot-marker')];
    const inside = markers.filter((marker) => {
      const box = marker.getBoundingClientRect();
      const x = box.left + box.width / 2;
      const y = box.top + box.height / 2;
      return x >= frame.left && x <= frame.right && y >= frame.top && y <= frame.bottom;
    });
    return { inside: inside.length, all: markers.length };
  });
}

describe('printing the overview (issue 19, point 11)', () => {
  it('fits the whole map, every hotspot, on the page; the screen view comes back after', async () => {
    const page = await open();
    await page.goto(`${stack.baseUrl}/`);
    await waitForMap(page, 20);
    await waitForPanels(page);
    // Printed from the screen it is on: the print layout is narrower than the screen, and what
    // Leaflet drew for the screen's box was cut to the paper's width (2 of 20 hotspots on paper).
    await page.emulateMedia({ media: 'print' });
    await expect
      .poll(async () => (await page.locator('#world-map').boundingBox())!.width)
      .toBeLessThanOrEqual(A4_WIDTH_PX - 2 * MARGIN_PX);
    await expect.poll(() => markersInsideMap(page)).toEqual({ inside: 20, all: 20 });
    // The whole first view (the inhabited world, 135° W to 170° E) across the paper's map, not a
    // part of it enlarged: the markers span at most their longitudes' share of those 305°
    // (give or take the few pixels markers are fanned out by).
    const hotspots = (await (await fetch(`${stack.baseUrl}/api/v1/hotspots?limit=20`)).json()) as {
      hotspots: { lng?: number | null }[];
    };
    const lngs = hotspots.hotspots.flatMap((h) => (typeof h.lng === 'number' ? [h.lng] : []));
    const worldShare = (Math.max(...lngs) - Math.min(...lngs)) / 305;
    expect(await markerSpanShare(page)).toBeLessThanOrEqual(worldShare + 0.03);
    await page.screenshot({ path: screenshotPath('print-overview-media') });
    const { text, pages } = await printedPdf(page, 'overview');
    expect(text).toContain('World map');

    expect(pages.length).toBeGreaterThan(1);
    // Back on screen: the screen's size again, every marker still in view.
    await page.emulateMedia({ media: 'screen' });
    await expect
      .poll(async () => (await page.locator('#world-map').boundingBox())!.width)
      .toBeGreaterThan(1000);
    await expect.poll(() => markersInsideMap(page)).toEqual({ inside: 20, all: 20 });
  });

  it("fits every hotspot on the page from a shared link's zoomed view too", async () => {
    // A shared link's view is held while the page settles (FollowBoxSize); the paper's box
    // must not bring it back over the fit.
    const page = await open();
    await page.goto(`${stack.baseUrl}/?map=22.99,80,2.75`);
    await waitForMap(page, 20);
    await waitForPanels(page);
    expect((await markersInsideMap(page)).inside).toBeLessThan(20);
    await page.emulateMedia({ media: 'print' });
    await expect
      .poll(async () => (await page.locator('#world-map').boundingBox())!.width)
      .toBeLessThanOrEqual(A4_WIDTH_PX - 2 * MARGIN_PX);
    await expect.poll(() => markersInsideMap(page)).toEqual({ inside: 20, all: 20 });
  });

  it("carries the data's batch time and page numbers on every page, not the time it was printed", async () => {
    const page = await open();
    await page.goto(`${stack.baseUrl}/`);
    await waitForMap(page, 20);
    await waitForPanels(page);
    await page.emulateMedia({ media: 'print' });
    const { text, pages } = await printedPdf(page, 'overview-footer');
    pages.forEach((sheet, i) => {
      expect(sheet, `page ${i + 1}`).toContain(`Data of the batch of ${batchTime}`);
      expect(sheet, `page ${i + 1}`).toMatch(new RegExp(`Page ${i + 1} / ${pages.length}\\b`));
    });
    // "11 d ago" on the screen; on paper, read days later, the date alone.
    expect(text).not.toMatch(/\bago\b/);
  });

  it('links to the brief of its hotspots, visibly', async () => {
    const page = await open();
    await page.goto(`${stack.baseUrl}/`);
    await waitForMap(page, 20);
    const link = page.getByRole('link', { name: /^Brief of these hotspots/ });
    expect(await link.isVisible()).toBe(true);
    const isos = await page.$$eval('.world-map .hotspot-marker', (markers) =>
      markers.map((m) => (m as HTMLElement).dataset.iso ?? ''),
    );
    await link.click();
    await page.waitForURL(/\/brief\?iso=/);
    const shown = new URL(page.url()).searchParams.get('iso')!.split(',');
    expect(new Set(shown)).toEqual(new Set(isos));
    await page.getByRole('heading', { level: 1, name: /^Brief/ }).waitFor();
  });
});

describe('printing a brief (issue 19, point 11)', () => {
  it('gives every sparkline its scale and every page the batch time and its number', async () => {
    const page = await open();
    await page.goto(`${stack.baseUrl}/brief?iso=MLI,NER,UKR`);
    const scales = page.locator('.brief .sparkline-scale');
    await expect.poll(() => scales.count()).toBe(4);
    for (const scale of await scales.all()) {
      const max = Number(await scale.locator('.sparkline-max').textContent());
      const min = Number(await scale.locator('.sparkline-min').textContent());
      expect(max).toBeGreaterThanOrEqual(min);
      expect(await scale.isVisible()).toBe(true);
    }
    await page.emulateMedia({ media: 'print' });
    await page.screenshot({ path: screenshotPath('print-brief-media'), fullPage: true });
    const { text, pages } = await printedPdf(page, 'brief');
    expect(text).toContain(`Data of the batch of ${batchTime}`);
    pages.forEach((sheet, i) => {
      expect(sheet, `page ${i + 1}`).toContain(`Data of the batch of ${batchTime}`);
      expect(sheet, `page ${i + 1}`).toMatch(new RegExp(`Page ${i + 1} / ${pages.length}\\b`));
    });
    expect(text).not.toMatch(/Brief of \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    // Cited (issue 22): the batch's id, and a link that opens exactly that batch, on paper too.
    const [latest] = (
      (await (await fetch(`${stack.baseUrl}/api/batches?limit=1`)).json()) as {
        batches: { id: string; as_of: string }[];
      }
    ).batches;
    const citation = page.locator('.brief-citation');
    expect(await citation.textContent()).toContain(`Batch id ${latest?.id}`);
    expect(text.replace(/\s+/g, '')).toContain(`Batchid${latest?.id}`);
    const href = (await citation.locator('a').getAttribute('href')) ?? '';
    const url = new URL(href);
    expect(url.searchParams.get('as_of')).toBe(latest?.as_of);
    expect(url.searchParams.get('iso')).toBe('MLI,NER,UKR');
  });
});

// Issue 33, point 9: the printed country page, for an executive: at most two pages on A4 and on
// Letter, the batch's absolute time (no "7 h ago"), no form controls, the data-time footer and
// page numbers on every page.
/** The top hotspot's country page, loaded, its batch-time footer in place, in print media. */
async function openCountryForPrint(): Promise<Page> {
  const page = await open();
  const iso = (
    (await (await fetch(`${stack.baseUrl}/api/v1/hotspots?limit=1`)).json()) as {
      hotspots: { iso: string }[];
    }
  ).hotspots[0]!.iso;
  await page.goto(`${stack.baseUrl}/country/${iso}`);
  await page.locator('.country-header').waitFor();
  await page.locator('.locator-map').waitFor();
  await waitForPanels(page);
  // The footer's <style> comes with the country's answer: printing before it printed no footer.
  await page.waitForFunction(() =>
    [...document.querySelectorAll('style')].some((s) =>
      s.textContent?.includes('Data of the batch of'),
    ),
  );
  await page.emulateMedia({ media: 'print' });
  return page;
}

describe('printing a country page (issue 33, point 9)', () => {
  it('prints the batch time and page numbers on every page, no "ago", no <select> or note box', async () => {
    const page = await openCountryForPrint();
    const printedSelects = await page
      .locator('main select, main textarea')
      // Rendered at all (a hidden ancestor hides it too): a form control has no use on paper.
      .evaluateAll((all) => all.filter((el) => el.getClientRects().length > 0).length);
    const { text, pages } = await printedPdf(page, 'country');
    pages.forEach((sheet, i) => {
      expect(sheet, `page ${i + 1}`).toContain(`Data of the batch of ${batchTime}`);
      expect(sheet, `page ${i + 1}`).toMatch(new RegExp(`Page ${i + 1} / ${pages.length}\\b`));
    });
    expect(text).not.toMatch(/\bago\b/);
    expect(printedSelects).toBe(0);
  });

  it('prints the categories as a table, not the chart drawn for the screen', async () => {
    const page = await openCountryForPrint();
    // The chart keeps the width it was drawn at on screen; on paper it ran into the events.
    expect(await page.locator('.categories-chart').isVisible()).toBe(false);
    const table = page.getByRole('table', { name: 'Category scores, highest first' });
    await expect.poll(() => table.isVisible()).toBe(true);
    expect(await table.getByRole('row').count()).toBe(11);
  });

  it.each(['A4', 'Letter'] as const)('fits on at most two %s pages', async (format) => {
    const page = await openCountryForPrint();
    await page.screenshot({
      path: screenshotPath(`print-country-${format}-media`),
      fullPage: true,
    });
    const { pages } = await printedPdf(page, `country-${format}`, format);
    expect(pages.length).toBeLessThanOrEqual(2);
  });
});
