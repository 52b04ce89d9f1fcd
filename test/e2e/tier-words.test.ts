import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { inEachScheme, screenshotPath, waitForMap, waitForPanels } from './browser.js';
import { browserSuite } from './suite.js';

// Issue 19, point 12: an upstream with its own tier words. Its "high", "mod" and "low" arrive as
// "elevated", "guarded" and "minimal"; "crit" stays a known tier.
const WORDS = { high: 'elevated', mod: 'guarded', low: 'minimal' };
const LEARNED = ['elevated', 'guarded', 'minimal'];
const suite = browserSuite({ demo: { tierLabels: WORDS } });

const PHONE = { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true };
const DESKTOP = { viewport: { width: 1440, height: 900 } };

/** Relative luminance (WCAG) of a computed `rgb(r, g, b)` colour. */
function luminance(rgb: string): number {
  const [r, g, b] = (rgb.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((c) => {
    const v = Number(c) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
}

/** The legend's entries in order: label and its swatch's background colour. */
function legendEntries(page: Page): Promise<{ label: string; fill: string }[]> {
  return page.$$eval('.map-legend li', (items) =>
    items.flatMap((item) => {
      const swatch = item.querySelector('.swatch');
      if (!swatch || swatch.classList.contains('swatch-nodata')) return [];
      return [{ label: item.textContent.trim(), fill: getComputedStyle(swatch).backgroundColor }];
    }),
  );
}

/** Background colour of each element matching `selector`, keyed by its text (first seen wins). */
function fillsByText(page: Page, selector: string): Promise<Record<string, string[]>> {
  return page.$$eval(selector, (elements) => {
    const fills: Record<string, string[]> = {};
    for (const element of elements) {
      const text = (element.textContent ?? '').trim();
      const fill = getComputedStyle(element).backgroundColor;
      fills[text] = [...new Set([...(fills[text] ?? []), fill])];
    }
    return fills;
  });
}

/** Marker colours by the tier word in each marker's accessible label ("…: risk 61.2, elevated."). */
function markerFills(page: Page): Promise<Record<string, string[]>> {
  return page.$$eval('.world-map .hotspot-marker', (markers) => {
    const fills: Record<string, string[]> = {};
    for (const marker of markers) {
      const tier = /, ([^,.]+)\. Open/.exec(marker.textContent ?? '')?.[1] ?? '';
      const fill = getComputedStyle(marker).backgroundColor;
      fills[tier] = [...new Set([...(fills[tier] ?? []), fill])];
    }
    return fills;
  });
}

describe('tier words the dashboard does not know (issue 19, point 12)', () => {
  for (const [name, options] of [
    ['1440', DESKTOP],
    ['375', PHONE],
  ] as const) {
    it(`get distinct colours ordered by their scores on the legend, markers and badges (${name} px, light and dark)`, async () => {
      const { page } = await suite.open(options);
      await page.goto(`${suite.stack.baseUrl}/?table=all`);
      await waitForMap(page);
      await waitForPanels(page);
      await inEachScheme(page, async (scheme) => {
        // Three colours, none the known tiers' or another learned label's (once the list that
        // teaches the order is in).
        await expect
          .poll(async () => new Set((await legendEntries(page)).map((e) => e.fill)).size)
          .toBe(4);
        const legend = await legendEntries(page);
        expect(legend.map((e) => e.label)).toEqual(['Critical', ...LEARNED]);
        const learned = legend.slice(1);
        // Ordered: the more severe, the darker.
        const lum = learned.map((e) => luminance(e.fill));
        expect(lum[0]!).toBeLessThan(lum[1]!);
        expect(lum[1]!).toBeLessThan(lum[2]!);
        expect(await page.locator('.map-legend .legend-note').textContent()).toContain(
          'learned from the scores',
        );

        // The markers and the badges wear the legend's colour of their label.
        const byLabel = Object.fromEntries(legend.map((e) => [e.label, e.fill]));
        const markers = await markerFills(page);
        const markerWords = Object.keys(markers).filter((w) => LEARNED.includes(w));
        expect(markerWords.length).toBeGreaterThan(0);
        for (const word of markerWords) expect(markers[word], word).toEqual([byLabel[word]]);
        const badges = await fillsByText(page, 'main .tier-badge');
        for (const word of LEARNED) expect(badges[word], `badge ${word}`).toEqual([byLabel[word]]);

        await page.locator('.map-panel').screenshot({
          path: screenshotPath(`tier-words-map-${name}-${scheme}`),
        });
        await page.screenshot({ path: screenshotPath(`tier-words-${name}-${scheme}`) });
      });
    });
  }

  it('a country page colours its learned tier as the overview does', async () => {
    const { page } = await suite.open(DESKTOP);
    await page.goto(`${suite.stack.baseUrl}/`);
    await waitForMap(page);
    await expect
      .poll(async () => new Set((await legendEntries(page)).map((e) => e.fill)).size)
      .toBe(4);
    const legend = Object.fromEntries((await legendEntries(page)).map((e) => [e.label, e.fill]));
    const row = page.locator('.hotspot-table tbody tr', { hasText: 'elevated' }).first();
    await row.getByRole('link').first().click();
    await page.waitForURL(/\/country\/[A-Z]{3}$/);
    const badge = page.locator('main .tier-badge', { hasText: 'elevated' }).first();
    await expect
      .poll(() => badge.evaluate((b) => getComputedStyle(b).backgroundColor))
      .toBe(legend.elevated);
  });
});
