import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Browser, Page } from 'playwright-core';

/*
 * Issue 32, point 7: Interaction to Next Paint of four interactions on a phone, measured by the
 * `web-vitals` library (its IIFE build put into the page before the app's scripts, so the app's
 * bundle does not carry it) in Debian's Chromium with the renderer slowed fourfold (DevTools'
 * CPU throttling). Each run opens the page in a fresh context, waits until it has settled, does
 * the one interaction, and reads the largest interaction web-vitals reported for it.
 */
const RUNS = 5;
const CPU_SLOWDOWN = 4;
const PHONE = { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true };

/** The package exports no path to its IIFE build: it lies beside the main file, in dist/. */
const webVitalsScript = (): string =>
  readFileSync(
    join(dirname(createRequire(import.meta.url).resolve('web-vitals')), 'web-vitals.iife.js'),
    'utf8',
  );

const REPORT = `
  window.__inp = [];
  webVitals.onINP((metric) => window.__inp.push(metric.value), {
    reportAllChanges: true,
    durationThreshold: 16,
  });
`;

export interface InteractionFigure {
  name: string;
  /** INP of each run, ms; 0 when no interaction reached web-vitals' 16 ms floor. */
  runs: number[];
}

interface Scenario {
  name: string;
  path: (iso: string) => string;
  ready: (page: Page) => Promise<void>;
  act: (page: Page) => Promise<void>;
}

const overviewReady = async (page: Page) => {
  await page.locator('.world-map .hotspot-marker').first().waitFor({ timeout: 60_000 });
  await page.locator('.hotspot-table tbody tr').first().waitFor({ timeout: 60_000 });
};
const countryHeader = (page: Page) =>
  page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 60_000 });

const SCENARIOS: Scenario[] = [
  {
    name: 'open a country from the table',
    path: () => '/',
    ready: overviewReady,
    act: async (page) => {
      await page.locator('.hotspot-table tbody tr a').first().click();
      await page.waitForURL(/\/country\//);
    },
  },
  {
    name: 'open a country from the map',
    path: () => '/',
    ready: overviewReady,
    act: async (page) => {
      await page.locator('.world-map .hotspot-marker').first().click({ force: true });
      await page.waitForURL(/\/country\//);
    },
  },
  {
    name: 'switch a trend range',
    path: (iso) => `/country/${iso}`,
    ready: async (page) => {
      await countryHeader(page);
      await page.locator('.segmented[role=group] button').first().waitFor({ timeout: 60_000 });
    },
    act: (page) =>
      page.locator('.segmented[role=group] button[aria-pressed=false]').first().click(),
  },
  {
    name: 'filter the hotspot table by tier',
    path: () => '/',
    ready: overviewReady,
    act: (page) => page.locator('.tier-check input').first().click(),
  },
];

/** The largest INP web-vitals has reported, after the interaction's frame (or 0 after 3 s). */
async function reportedInp(page: Page): Promise<number> {
  await page
    .waitForFunction(() => (window as unknown as { __inp: number[] }).__inp.length > 0, null, {
      timeout: 3_000,
    })
    .catch(() => undefined);
  return page.evaluate(() => Math.max(0, ...(window as unknown as { __inp: number[] }).__inp));
}

export async function runInteractionBench(
  browser: Browser,
  baseUrl: string,
  iso: string,
): Promise<InteractionFigure[]> {
  const script = webVitalsScript();
  const figures: InteractionFigure[] = [];
  for (const scenario of SCENARIOS) {
    const runs: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const context = await browser.newContext({ ...PHONE, serviceWorkers: 'block' });
      await context.addInitScript({ content: `${script}\n${REPORT}` });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
      await page.goto(`${baseUrl}${scenario.path(iso)}`);
      await scenario.ready(page);
      await scenario.act(page);
      runs.push(await reportedInp(page));
      await context.close();
    }
    figures.push({ name: scenario.name, runs });
  }
  return figures;
}
