import {
  chromium,
  type Browser,
  type BrowserContextOptions,
  type Locator,
  type Page,
} from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect } from 'vitest';
import { signInForMode } from './mode-clients.js';
import { playwrightBrowsers } from './processes.js';

const CHROMIUM = '/usr/bin/chromium';

/**
 * Chromium's new headless mode (the only one Debian's package has) is the whole browser: every
 * window, so every Playwright context, gets the address bar's WebUI popup preloaded in a renderer
 * of its own. Measured on Chromium 156, that renderer took about 1.5 CPU-seconds per context, as
 * much as the overview's own, and the browser process half as much again (docs/testing.md). The
 * two features are that popup; nothing here has an address bar to type in.
 */
const UNUSED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

let launchArgs: Promise<string[]> | undefined;

/**
 * Debian's Chromium, driven by playwright-core (never a downloaded browser). The networking
 * flags stop Chromium's own background calls, which this closed network refuses anyway.
 */
export async function launchChromium(): Promise<Browser> {
  launchArgs ??= chromiumArgs();
  return chromium.launch({ executablePath: CHROMIUM, args: await launchArgs });
}

async function chromiumArgs(): Promise<string[]> {
  return [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    `--disable-features=${[...(await playwrightDisabledFeatures()), ...UNUSED_FEATURES].join(',')}`,
  ];
}

/**
 * The features Playwright itself switches off. Chromium keeps only the last `--disable-features`
 * it is given, so ours must repeat them; they are read from a browser Playwright launches (its
 * command line in /proc), once per process, rather than copied from its source, where an upgrade
 * would change them unseen.
 */
async function playwrightDisabledFeatures(): Promise<string[]> {
  const before = new Set(playwrightBrowsers().keys());
  const probe = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    const launched = [...playwrightBrowsers()]
      .filter(([pid]) => !before.has(pid))
      .map(([, browser]) => browser);
    const [browser] = launched;
    if (browser === undefined || launched.length > 1) {
      throw new Error(`expected one new Chromium under this process, found ${launched.length}`);
    }
    const flag = browser.args.findLast((arg) => arg.startsWith('--disable-features='));
    if (flag === undefined)
      throw new Error('Playwright launched Chromium without --disable-features');
    return flag.slice('--disable-features='.length).split(',').filter(Boolean);
  } finally {
    await probe.close();
  }
}

/** The two widths the views are checked at: a laptop and a phone (touch, mobile layout). */
export const DESKTOP_1440 = { viewport: { width: 1440, height: 900 }, bypassCSP: true };
export const PHONE_375 = {
  viewport: { width: 375, height: 812 },
  isMobile: true,
  hasTouch: true,
  bypassCSP: true,
};

export const SCREENSHOT_DIR = resolve(import.meta.dirname, '../../test-results');
mkdirSync(SCREENSHOT_DIR, { recursive: true });

export function screenshotPath(name: string): string {
  return resolve(SCREENSHOT_DIR, `${name}.png`);
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

export interface WatchedPage {
  page: Page;
  /** Requests to any host that is not loopback (the default configuration must make none). */
  foreignRequests: string[];
  /** Uncaught page errors and console errors (other than the browser's own network log). */
  errors: string[];
  /** Answers with status ≥ 400, as "404 /path?query"; tests compare them with what they expect. */
  httpErrors: string[];
  close(): Promise<void>;
}

/**
 * `E2E_CPU_THROTTLE=4` slows every page's renderer fourfold (Chrome DevTools Protocol's
 * `Emulation.setCPUThrottlingRate`), as a loaded CI machine or a slow phone would: a test that
 * reads the page before the state it means has arrived then fails here too. Unset, pages run at
 * full speed.
 */
export function cpuThrottleRate(value = process.env.E2E_CPU_THROTTLE): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const rate = Number(value);
  if (!Number.isFinite(rate) || rate < 1) {
    throw new Error(`E2E_CPU_THROTTLE must be a number ≥ 1 (a slowdown factor), not "${value}"`);
  }
  return rate === 1 ? undefined : rate;
}

/**
 * How long a test waits for a page to show what it means (a limit, not a pause): 20 s, and more
 * on a throttled renderer, where the loaded run (scripts/loaded-test.mjs) also has both cores
 * busy. Playwright's own actions (goto, click) get the same limit.
 */
export const PAGE_WAIT_MS = 20_000 * Math.max(1, (cpuThrottleRate() ?? 1) / 2);

/**
 * Runs `check` on the page as it stands in the light scheme, then again in the dark one. The
 * app's dark theme is CSS alone (`prefers-color-scheme` in base.css; tier colours are custom
 * properties the CSS picks), so switching the emulated scheme redraws the page as one opened
 * dark draws it, without a second load: a load of the overview costs its renderer about 1.5 s of
 * CPU, and the browser lane is the suite's critical path (docs/testing.md).
 */
export async function inEachScheme(
  page: Page,
  check: (scheme: 'light' | 'dark') => Promise<void>,
): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    // The page itself says which scheme it is in, or the second check would judge light twice.
    const dark = await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches);
    if (dark !== (colorScheme === 'dark')) throw new Error(`the page is not in ${colorScheme}`);
    await check(colorScheme);
  }
}

/**
 * A fresh context and page that records where it sends requests and what goes wrong, signed in
 * on the stacks started in TEST_AUTH_MODE (mode-clients.ts).
 */
export async function openPage(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<WatchedPage> {
  const context = await browser.newContext({
    viewport: { width: 1366, height: 900 },
    // The built app registers a service worker (issue 32, point 3). Pages a test routes or counts
    // requests of would meet its caches instead: only a test that asks for it gets one
    // (test/e2e/offline.test.ts).
    serviceWorkers: 'block',
    ...options,
  });
  context.setDefaultTimeout(Math.max(30_000, PAGE_WAIT_MS));
  await signInForMode(context);
  const page = await context.newPage();
  const throttle = cpuThrottleRate();
  if (throttle !== undefined) await throttleCpu(page, throttle);
  const foreignRequests: string[] = [];
  const errors: string[] = [];
  const httpErrors: string[] = [];
  page.on('response', (response) => {
    if (response.status() < 400) return;
    const url = new URL(response.url());
    httpErrors.push(`${response.status()} ${url.pathname}${url.search}`);
  });
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol === 'data:' || url.protocol === 'blob:') return;
    if (!LOOPBACK.has(url.hostname)) foreignRequests.push(request.url());
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    // "Failed to load resource" repeats an HTTP error status, which httpErrors records exactly.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      errors.push(`console: ${message.text()}`);
    }
  });
  return { page, foreignRequests, errors, httpErrors, close: () => context.close() };
}

/**
 * Slows the page's renderer through a CDP session of its own. That session stays attached (the
 * rate ends with it), and on every navigation Chromium applies each session's emulation state,
 * this one's "screen media, online", so it repeats what the test asked of Playwright's session:
 * - the media type: a `page.emulateMedia({ media: 'print' })` made before a `goto` was undone by
 *   it (the page loaded in screen media);
 * - the network: after `context.setOffline(true)`, a reload came back with `navigator.onLine`
 *   true and no offline banner (only with E2E_CPU_THROTTLE set: the offline test failed in the
 *   loaded run and passed without the throttle).
 */
async function throttleCpu(page: Page, rate: number): Promise<void> {
  const context = page.context();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  const emulateMedia = page.emulateMedia.bind(page);
  page.emulateMedia = async (options) => {
    await emulateMedia(options);
    if (options && 'media' in options) {
      await cdp.send('Emulation.setEmulatedMedia', { media: options.media ?? '' });
    }
  };
  // One page per context (openPage), so the context's offline state is this page's.
  const setOffline = context.setOffline.bind(context);
  context.setOffline = async (offline) => {
    await setOffline(offline);
    await cdp.send('Network.emulateNetworkConditions', {
      offline,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
  };
}

/**
 * Waits until the SPA has taken the server's first frame away (docs/views.md). The frame draws
 * the same table, links and title bar without the SPA's behaviour: a hover, a menu or a click
 * that lands on it does nothing the SPA would do, and the SPA then replaces it under the pointer.
 */
export async function spaDrawn(page: Page): Promise<void> {
  await page.locator('#first-frame').waitFor({ state: 'detached', timeout: PAGE_WAIT_MS });
}

/** Waits until the world map has drawn its shapes and the given number of markers. */
export async function waitForMap(page: Page, markers?: number): Promise<void> {
  await page.waitForFunction(
    (expected) => {
      const shapes = document.querySelectorAll('.world-map path.shape').length;
      const drawn = document.querySelectorAll('.world-map .hotspot-marker').length;
      return shapes > 150 && (expected === undefined ? drawn > 0 : drawn === expected);
    },
    markers,
    { timeout: PAGE_WAIT_MS },
  );
}

/**
 * Trend charts are drawn once scrolled near (WhenNear, issue 32): brings the first one in `scope`
 * (its place, or the chart once drawn) to the screen and waits until its lines are drawn. A line
 * may be flat (a box of zero height, "hidden" to Playwright): attached is drawn.
 * The place is scrolled to again until the chart is drawn: panels above it still arriving can
 * move it off the screen before its observer first looks (seen on the phone overview when the
 * page came quickly), and a place once passed over is never drawn.
 */
export async function drawTrend(scope: Page | Locator): Promise<void> {
  const place = scope.locator('.when-near, .trend-chart').first();
  const curve = scope.locator('.recharts-line-curve').first();
  await expect
    .poll(
      async () => {
        if ((await curve.count()) > 0) return true;
        // Not there yet (its panel's data still coming), or replaced by the chart while being
        // scrolled to (Playwright refuses the detached element): looked for again next time.
        await place.scrollIntoViewIfNeeded({ timeout: 2_000 }).catch(() => undefined);
        return (await curve.count()) > 0;
      },
      { timeout: PAGE_WAIT_MS, message: 'a trend chart drawn with its lines' },
    )
    .toBe(true);
}

/**
 * Waits until no panel of the page is still loading (no `aria-busy` skeleton or loading frame
 * left): lazily loaded panels (the trend chart) arrive after the map, and a screenshot or a
 * layout check should see them drawn.
 */
export async function waitForPanels(page: Page): Promise<void> {
  await page.waitForFunction(
    () => document.querySelectorAll('main [aria-busy="true"]').length === 0,
    undefined,
    { timeout: PAGE_WAIT_MS },
  );
}

/** The horizontal overflow of the page itself, in pixels (0 when it fits the viewport). */
export function pageOverflow(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) -
      document.documentElement.clientWidth,
  );
}
