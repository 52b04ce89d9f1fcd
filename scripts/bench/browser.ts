import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../test/e2e/browser.js';
import { startStack } from '../../test/helpers/stack.js';
import { runInteractionBench } from './interaction.js';

// (3) Time from navigation to the global index and the map drawn, in Debian's Chromium against the
// built app served by the BFF on loopback. The SPA sets user-timing marks once the frame showing
// each has been painted (src/client/lib/perf-marks.ts); their startTime is measured from the
// navigation's time origin. Each page load uses a fresh browser context (empty HTTP cache). The
// first load also finds the BFF's cache empty; the rest are served from it, as analysts' loads
// are after the first.

// The hotspot table lies below the map and is drawn right after the first frame: measured too,
// so that what the first two gain is not silently paid by the third.
const OVERVIEW_MARKS = ['grd:global-index-drawn', 'grd:map-drawn', 'grd:hotspot-table-drawn'];
const COUNTRY_MARKS = ['grd:country-header-drawn'];
const LOADS = 11;

const quantile = (values: number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};

/**
 * Resolves once every mark is set, told by a PerformanceObserver: nothing runs in the page
 * meanwhile. Playwright's `waitForFunction` polls on every animation frame, which keeps the page
 * producing a frame every 16 ms while it loads; on the 2-core bench machine that made the marks
 * about 35 ms later than on a page nobody watches (docs/benchmarks.md, section 3).
 */
async function waitForMarks(page: Page, marks: string[], timeoutMs = 30_000): Promise<void> {
  await page.evaluate(
    ({ names, timeout }) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`marks not all set within ${timeout} ms: ${names.join(', ')}`)),
          timeout,
        );
        const observer = new PerformanceObserver(() => {
          if (!names.every((name) => performance.getEntriesByName(name, 'mark').length > 0)) return;
          observer.disconnect();
          clearTimeout(timer);
          resolve();
        });
        // `buffered` also reports marks set before the observer existed.
        observer.observe({ type: 'mark', buffered: true });
      }),
    { names: marks, timeout: timeoutMs },
  );
}

/** Loads `url` LOADS times, each in a fresh context, and prints each mark's median and p90. */
async function timePage(browser: Browser, url: string, marks: string[]): Promise<void> {
  const samples = marks.map((): number[] => []);
  for (let load = 0; load < LOADS; load += 1) {
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    await page.goto(url);
    await waitForMarks(page, marks);
    const times = await page.evaluate(
      (names) => names.map((name) => performance.getEntriesByName(name, 'mark')[0]?.startTime),
      marks,
    );
    await context.close();
    if (load === 0) {
      const line = marks.map((name, i) => `${name.slice(4)} ${times[i]?.toFixed(0)} ms`);
      process.stdout.write(`    first load, BFF cache empty: ${line.join(', ')}\n`);
    } else {
      times.forEach((time, i) => samples[i]?.push(time ?? NaN));
    }
  }
  marks.forEach((name, i) => {
    const values = samples[i] ?? [];
    process.stdout.write(
      `    ${name.slice(4).padEnd(24)} median ${quantile(values, 0.5).toFixed(0)} ms, ` +
        `p90 ${quantile(values, 0.9).toFixed(0)} ms over ${values.length} loads (BFF cache warm, ` +
        'browser cache empty)\n',
    );
  });
}

/** Issue 32, point 7: INP of four interactions on a phone at 4x CPU (interaction.ts). */
export async function printInteractions(
  browser: Browser,
  baseUrl: string,
  iso: string,
): Promise<void> {
  process.stdout.write('    interactions at 375 px, 4x CPU, web-vitals INP (target < 200 ms):\n');
  for (const figure of await runInteractionBench(browser, baseUrl, iso)) {
    const runs = figure.runs.map((ms) => (ms === 0 ? '<16' : ms.toFixed(0))).join(', ');
    process.stdout.write(
      `      ${figure.name.padEnd(34)} median ${quantile(figure.runs, 0.5).toFixed(0)} ms, ` +
        `max ${Math.max(...figure.runs).toFixed(0)} ms (runs: ${runs})\n`,
    );
  }
}

/** `npm run bench -- --inp`: only the interactions, on the built app. */
export async function runInteractionsOnly(
  clientDir = resolve(import.meta.dirname, '../../dist/client'),
): Promise<void> {
  const stack = await startStack({
    clientDir,
    config: { history: { databaseUrl: null, retentionDays: null } },
  });
  const browser = await launchChromium();
  try {
    await printInteractions(browser, stack.baseUrl, 'UKR');
  } finally {
    await browser.close();
    await stack.close();
  }
}

export async function runBrowserBench(
  clientDir = resolve(import.meta.dirname, '../../dist/client'),
): Promise<void> {
  if (!existsSync(resolve(clientDir, 'index.html'))) {
    process.stdout.write('    dist/client is missing: run `npm run build` first\n');
    return;
  }
  // As `npm start` runs it: with the history store (the overview asks its routes too).
  const stack = await startStack({
    clientDir,
    config: { history: { databaseUrl: null, retentionDays: null } },
  });
  const browser = await launchChromium();
  try {
    process.stdout.write('    the overview (/):\n');
    await timePage(browser, `${stack.baseUrl}/`, OVERVIEW_MARKS);
    // The top hotspot's page: a country with data and events whatever the demo batch holds.
    const hotspots = (await (await fetch(`${stack.baseUrl}/api/v1/hotspots?limit=1`)).json()) as {
      hotspots: { iso: string }[];
    };
    const iso = hotspots.hotspots[0]?.iso ?? 'SDN';
    process.stdout.write(`    a country page (/country/${iso}):\n`);
    await timePage(browser, `${stack.baseUrl}/country/${iso}`, COUNTRY_MARKS);
    await printInteractions(browser, stack.baseUrl, iso);
  } finally {
    await browser.close();
    await stack.close();
  }
}
