import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { launchChromium } from '../../test/e2e/browser.js';
import { startStack } from '../../test/helpers/stack.js';

// (3) Time from navigation to the global index and the map drawn, in Debian's Chromium against the
// built app served by the BFF on loopback. The SPA sets user-timing marks once the frame showing
// each has been painted (src/client/lib/perf-marks.ts); their startTime is measured from the
// navigation's time origin.
// Each page load uses a fresh browser context (empty HTTP cache). The first load also finds the
// BFF's cache empty; the rest are served from it, as analysts' loads are after the first.

// The hotspot table lies below the map and is drawn right after the first frame: measured too,
// so that what the first two gain is not silently paid by the third.
const MARKS = ['grd:global-index-drawn', 'grd:map-drawn', 'grd:hotspot-table-drawn'] as const;
const LOADS = 11;

const quantile = (values: number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};

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
  const samples: Record<string, number[]> = Object.fromEntries(MARKS.map((m) => [m, []]));
  try {
    for (let load = 0; load < LOADS; load += 1) {
      const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
      const page = await context.newPage();
      await page.goto(`${stack.baseUrl}/`);
      await page.waitForFunction(
        (names) => names.every((name) => performance.getEntriesByName(name, 'mark').length > 0),
        [...MARKS],
        { timeout: 30_000 },
      );
      const times = await page.evaluate(
        (names) => names.map((name) => performance.getEntriesByName(name, 'mark')[0]?.startTime),
        [...MARKS],
      );
      const line = MARKS.map((name, i) => `${name.slice(4)} ${times[i]?.toFixed(0)} ms`).join(', ');
      if (load === 0) {
        process.stdout.write(`    first load, BFF cache empty: ${line}\n`);
      } else {
        MARKS.forEach((name, i) => samples[name]?.push(times[i] ?? NaN));
      }
      await context.close();
    }
  } finally {
    await browser.close();
    await stack.close();
  }
  for (const name of MARKS) {
    const values = samples[name] ?? [];
    process.stdout.write(
      `    ${name.slice(4).padEnd(24)} median ${quantile(values, 0.5).toFixed(0)} ms, ` +
        `p90 ${quantile(values, 0.9).toFixed(0)} ms over ${values.length} loads (BFF cache warm, ` +
        'browser cache empty)\n',
    );
  }
}
