import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  drawTrend,
  launchChromium,
  openPage,
  screenshotPath,
  waitForMap,
  waitForPanels,
  type WatchedPage,
} from './browser.js';
import { startHistoryE2eStack, type HistoryE2eStack } from './history-stack.js';

/*
 * Issue 32, point 4, on a 375 px phone: every piece of text at 12 px or more (map labels and
 * chart ticks included), every field's text at 16 px or more (or iOS zooms in on it), axe's `target-size` (WCAG 2.2 SC 2.5.8) and
 * `label-content-name-mismatch` clean, and no layout shift once the Alerts badge arrives (it
 * wrapped the navigation onto a second line: 0.31 on a country page when filed). And once drawn,
 * nothing on the page animates for ever: a phone's main thread and battery are not spent on it.
 */
// bypassCSP: axe is injected as an inline script, which the app's CSP (rightly) refuses.
const PHONE = {
  viewport: { width: 375, height: 812 },
  isMobile: true,
  hasTouch: true,
  bypassCSP: true,
};
const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

let stack: HistoryE2eStack;
let browser: Browser;
const opened: WatchedPage[] = [];

beforeAll(async () => {
  stack = await startHistoryE2eStack(6);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});
afterEach(async () => {
  for (const watched of opened.splice(0)) {
    expect(watched.errors, 'page errors').toEqual([]);
    expect(watched.httpErrors, 'HTTP errors').toEqual([]);
    await watched.close();
  }
});

// Every shift, `hadRecentInput` or not: these tests give no input, and Playwright's own
// `page.evaluate` counts as a user gesture that flags the next 500 ms (layout-shift.test.ts).
const RECORD_LAYOUT_SHIFTS = `
  window.__shift = { total: 0, moved: [] };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      window.__shift.total += entry.value;
      for (const s of entry.sources) {
        const n = s.node;
        window.__shift.moved.push((n && n.nodeType === 1 ? n.tagName + '.' + n.className : String(n && n.nodeName)) + ' ' + Math.round(s.previousRect.y) + '→' + Math.round(s.currentRect.y));
      }
    }
  }).observe({ type: 'layout-shift', buffered: true });
`;

/**
 * A phone page whose person has 128 unread alerts: the count is answered late, as a slow
 * network would, so the badge arrives after everything else has been drawn.
 */
async function openPhone(): Promise<{ page: Page; unreadAnswered: () => boolean }> {
  const watched = await openPage(browser, PHONE);
  opened.push(watched);
  const { page } = watched;
  await page.addInitScript(RECORD_LAYOUT_SHIFTS);
  let answered = false;
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/alerts/unread-count', async (route) => {
    const response = await route.fetch();
    const json = (await response.json()) as Record<string, unknown>;
    await held;
    await route.fulfill({ response, json: { ...json, unread: 128 } });
    answered = true;
  });
  page.on('load', () => setTimeout(release, 0));
  return { page, unreadAnswered: () => answered };
}

const PAGES: {
  name: string;
  path: string;
  shown: (page: Page) => Promise<void>;
  /** The page's own heading starts this high on the screen, at most (its first screen). */
  headingTop?: { selector: string; px: number };
  /**
   * Targets that must be 24 × 24 px themselves: axe's `target-size` lets a smaller one pass when
   * nothing else is near, which depends on the batch (the movers' link, 19 px tall, passed here
   * and failed on the demo's data, its rows' country links closer above it).
   */
  fullSize?: string[];
}[] = [
  {
    name: 'overview',
    path: '/',
    shown: async (page) => {
      await waitForMap(page, 20);
      await page.locator('.hotspot-table tbody tr').first().waitFor();
    },
    fullSize: ['.changes-strip .strip-more'],
  },
  {
    name: 'country',
    path: '/country/UKR',
    shown: async (page) => {
      await page.getByRole('heading', { level: 1 }).waitFor();
      await drawTrend(page);
    },
    // The country and its score before what one can do with it (compare, follow, brief, a past
    // batch): with those above it, the name started 439 px down here (this stack's batch is
    // overdue, and the banner saying so takes 86 px); 257 px after.
    headingTop: { selector: '#country-heading', px: 280 },
  },
  {
    name: 'alerts',
    path: '/alerts',
    shown: (page) => page.getByRole('heading', { name: 'Inbox' }).waitFor(),
  },
];

/** Text nodes drawn under 12 px: HTML by computed size, SVG by size times the drawing's scale. */
function smallText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim() ?? '';
      const element = node.parentElement;
      if (!text || !element) continue;
      const box = element.getBoundingClientRect();
      // Visually hidden text (1 px, clipped) is for screen readers, not eyes.
      if (box.width <= 1 || box.height <= 1) continue;
      const style = getComputedStyle(element);
      if (style.visibility === 'hidden' || style.display === 'none') continue;
      let size = parseFloat(style.fontSize);
      if (element instanceof SVGElement && element instanceof SVGGraphicsElement) {
        const matrix = element.getScreenCTM();
        if (matrix) size *= Math.hypot(matrix.a, matrix.b);
      }
      if (size < 11.95)
        found.push(
          `${size.toFixed(1)} px: ${element.tagName}.${String(element.className)} "${text.slice(0, 30)}"`,
        );
    }
    return [...new Set(found)];
  });
}

/**
 * Fields whose text is under 16 px: iOS Safari zooms the page into such a field when it is
 * focused and leaves it zoomed (Chromium does not, so the size is what can be checked here).
 */
function smallFields(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [
      ...document.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>(
        'input, select, textarea',
      ),
    ]
      .filter((field) => !['checkbox', 'radio', 'range', 'file', 'hidden'].includes(field.type))
      .filter((field) => field.getBoundingClientRect().width > 1)
      .map((field) => `${getComputedStyle(field).fontSize} ${field.tagName}.${field.className}`)
      .filter((found) => parseFloat(found) < 16),
  );
}

/**
 * Animations that never end, running on a page at rest: a loading box left on the screen. Its
 * shimmer (a moving background) had the main thread repaint every frame, about 0.9 s of each
 * second at 4x CPU, while the overview's trend chart waited below the first screen.
 */
function endlessAnimations(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    document
      .getAnimations()
      .filter(
        (a) => a.playState === 'running' && a.effect?.getComputedTiming().iterations === Infinity,
      )
      .map((a) => {
        const target = a.effect instanceof KeyframeEffect ? a.effect.target : null;
        const name = a instanceof CSSAnimation ? a.animationName : a.id;
        return `${name} on ${target?.tagName}.${String(target?.className)}`;
      }),
  );
}

async function axeRules(page: Page, rules: string[]): Promise<string[]> {
  await page.addScriptTag({ path: AXE_PATH });
  return page.evaluate(async (values) => {
    const axe = (
      window as unknown as { axe: { run: (ctx: Document, o: unknown) => Promise<unknown> } }
    ).axe;
    const result = (await axe.run(document, { runOnly: { type: 'rule', values } })) as {
      violations: { id: string; nodes: { target: unknown[]; failureSummary?: string }[] }[];
    };
    return result.violations.flatMap((v) =>
      v.nodes.map((n) => `${v.id} ${JSON.stringify(n.target)} ${n.failureSummary ?? ''}`),
    );
  }, rules);
}

describe('readable and touchable on a 375 px phone (issue 32, point 4)', () => {
  for (const view of PAGES) {
    it(`the ${view.name} page: text ≥ 12 px, targets, names, no shift as the badge arrives, still at rest`, async () => {
      const { page, unreadAnswered } = await openPhone();
      await page.goto(`${stack.baseUrl}${view.path}`);
      await view.shown(page);
      await waitForPanels(page);
      await expect.poll(unreadAnswered).toBe(true);
      await page.locator('.unread-count', { hasText: '128' }).waitFor();
      await page.evaluate(
        () =>
          new Promise<void>((done) =>
            requestAnimationFrame(() => requestAnimationFrame(() => done())),
          ),
      );
      await page.screenshot({ path: screenshotPath(`phone-${view.name}-375`) });

      const problems = {
        small: await smallText(page),
        fields: await smallFields(page),
        axe: await axeRules(page, ['target-size', 'label-content-name-mismatch']),
        endless: await endlessAnimations(page),
      };
      expect(problems).toEqual({ small: [], fields: [], axe: [], endless: [] });
      const shift = await page.evaluate(
        () => (window as unknown as { __shift: { total: number; moved: string[] } }).__shift,
      );
      expect(shift.total, shift.moved.join('\n')).toBeLessThan(0.01);
      // The name a voice user says is the text they see, then what it means.
      expect(await page.getByRole('link', { name: 'Alerts 128 unread', exact: true }).count()).toBe(
        1,
      );
      // Three lines for the title bar (brand and badge; search and audit link; navigation),
      // not four: 144 px before, a country's name starting 400 px down an 812 px screen.
      const bar = await page.locator('.app-bar').boundingBox();
      expect(bar!.height).toBeLessThanOrEqual(112);
      const nav = await page.getByRole('navigation', { name: /Exposure/ }).boundingBox();
      expect(nav!.x).toBeLessThan(16);
      for (const selector of view.fullSize ?? []) {
        const box = await page.locator(selector).boundingBox();
        expect(box, selector).not.toBeNull();
        expect(Math.min(box!.width, box!.height), selector).toBeGreaterThanOrEqual(24);
      }
      if (view.headingTop) {
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: screenshotPath(`phone-${view.name}-top-375`) });
        const heading = await page.locator(view.headingTop.selector).boundingBox();
        expect(heading!.y).toBeLessThan(view.headingTop.px);
      }
    });
  }
});
