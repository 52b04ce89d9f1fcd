import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { startDemoUpstream } from '../../src/demo-upstream/server.js';
import { DEFAULT_FRESHNESS } from '../../src/shared/freshness.js';
import { TestClock } from '../helpers/clock.js';
import { ManualScheduler } from '../helpers/manual-scheduler.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import {
  launchChromium,
  openPage,
  SCREENSHOT_DIR,
  screenshotPath,
  type WatchedPage,
} from './browser.js';

/*
 * Following a country in the browser, a batch in which it moves by 10 or more (the demo's batch
 * clock), one alert in the inbox and one signed webhook; the brief printed to PDF by Chromium
 * and its pages turned into images (test-results/brief-page-*.png) to look at.
 */
const INTERVAL = 10 * 60_000;

/** A country whose active score moves by ≥ 10 between two consecutive demo batches. */
async function findMover(
  from: number,
): Promise<{ batchStart: number; iso: string; delta: number }> {
  const clock = new TestClock(from);
  const probe = await startDemoUpstream({
    host: '127.0.0.1',
    port: 0,
    now: clock.now,
    batchIntervalMs: INTERVAL,
  });
  const key = probe.issueKey('Custom', { limit: 10_000 });
  const actives = async (): Promise<Map<string, number>> => {
    const res = await fetch(`${probe.url}/api/v1/export?format=json`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const body = (await res.json()) as { countries: Array<{ iso: string; active: number }> };
    return new Map(body.countries.map((c) => [c.iso, c.active]));
  };
  try {
    let before = await actives();
    for (let i = 0; i < 100; i += 1) {
      const batchStart = clock.t;
      clock.advance(INTERVAL);
      const after = await actives();
      for (const [iso, active] of after) {
        const prior = before.get(iso);
        if (prior !== undefined && Math.abs(active - prior) >= 10)
          return { batchStart, iso, delta: active - prior };
      }
      before = after;
    }
  } finally {
    await probe.close();
  }
  throw new Error('no demo batch moved a country by 10 or more');
}

let browser: Browser;
let stack: Stack;
let clock: TestClock;
let scheduler: ManualScheduler;
let receiver: WebhookReceiver;
let mover: { batchStart: number; iso: string; delta: number };
const pages: WatchedPage[] = [];

beforeAll(async () => {
  const base = Math.floor(Date.UTC(2026, 6, 1, 6) / INTERVAL) * INTERVAL + 1000;
  mover = await findMover(base);
  clock = new TestClock(mover.batchStart);
  scheduler = new ManualScheduler(clock.now);
  receiver = await startWebhookReceiver();
  stack = await startStack({
    demo: { now: clock.now, batchIntervalMs: INTERVAL },
    now: clock.now,
    scheduler,
    tier: 'Custom',
    keyLimit: 1000,
    config: {
      // Checks for a new batch at least every minute of the test clock (FRESH_SECONDS=60).
      data: { freshness: { ...DEFAULT_FRESHNESS, freshMs: 60_000 } },
      history: { databaseUrl: null, retentionDays: null },
      alerts: { webhookAllowPrivate: true, email: null, linkBase: null },
    },
  });
  await stack.bff.historyIdle();
  browser = await launchChromium();
});
afterAll(async () => {
  for (const p of pages) await p.close();
  await browser?.close();
  await stack?.close();
  await receiver?.close();
});

async function open(): Promise<WatchedPage> {
  const watched = await openPage(browser);
  pages.push(watched);
  return watched;
}

describe('follow, alert, inbox', () => {
  it('following a country that then moves by 10+ gives one inbox entry and one signed webhook', async () => {
    const { page, errors } = await open();
    await page.goto(`${stack.baseUrl}/country/${mover.iso}`);
    const follow = page.getByRole('button', { name: /Follow/ });
    await follow.click();
    await expect.poll(() => follow.getAttribute('aria-pressed')).toBe('true');
    await page.screenshot({ path: screenshotPath('alerts-followed') });

    // Give the list a webhook to the loopback receiver (through the API a script would use).
    const lists = (await (await fetch(`${stack.baseUrl}/api/watchlists`)).json()) as {
      watchlists: Array<{
        id: string;
        name: string;
        countries: string[];
        version: number;
        rules: unknown[];
      }>;
    };
    const following = lists.watchlists.find((l) => l.name === 'Following')!;
    expect(following.countries).toEqual([mover.iso]);
    const put = await fetch(`${stack.baseUrl}/api/watchlists/${following.id}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'if-match': `"${following.version}"` },
      body: JSON.stringify({
        name: 'Following',
        countries: following.countries,
        rules: following.rules,
        webhook_url: receiver.url,
      }),
    });
    expect(put.status).toBe(200);
    const secret = ((await put.json()) as { webhook_secret: string }).webhook_secret;

    // The next batch: the demo upstream's clock moves on, the BFF's own watch records it.
    clock.set(mover.batchStart + INTERVAL + 1000);
    scheduler.runDue();
    await stack.bff.historyIdle();
    await stack.bff.alertsIdle();

    const [hook] = await receiver.waitFor(1);
    const payload = new Webhook(secret).verify(
      hook!.body,
      hook!.headers as Record<string, string>,
    ) as {
      data: { country: { iso: string }; alert: { message: string } };
    };
    expect(payload.data.country.iso).toBe(mover.iso);
    expect(receiver.received).toHaveLength(1);

    await page.goto(`${stack.baseUrl}/alerts`);
    await expect.poll(() => page.getByRole('link', { name: 'Alerts 1 unread' }).count()).toBe(1);
    const items = page.locator('.alert-item');
    await expect.poll(() => items.count()).toBe(1);
    expect(await items.first().textContent()).toContain(`(${mover.iso})`);
    expect(await items.first().textContent()).toMatch(/Active [+−]\d+\.\d/);
    await page.screenshot({ path: screenshotPath('alerts-inbox'), fullPage: true });
    await page.getByRole('button', { name: /Mark read/ }).click();
    await expect
      .poll(() => page.getByRole('link', { name: 'Alerts (none unread)' }).count())
      .toBe(1);
    expect(errors).toEqual([]);
  });

  it('the watchlist page shows its countries, trends and the alert', async () => {
    const { page } = await open();
    await page.goto(`${stack.baseUrl}/watchlists`);
    await page.getByRole('link', { name: 'Following' }).click();
    await page.waitForURL(/\/watchlists\/\d+$/);
    const row = page.locator('.watchlist-table tbody tr').first();
    await row.locator('.strong').filter({ hasText: /\d/ }).waitFor();
    expect(await row.textContent()).toContain(mover.iso);
    await page.locator('.watchlist-table svg.sparkline').first().waitFor();
    await expect.poll(() => page.locator('.alert-item').count()).toBe(1);
    await page.screenshot({ path: screenshotPath('alerts-watchlist'), fullPage: true });
  });
});

describe('the brief on paper', () => {
  it('prints to PDF: controls hidden, tier colours kept; pages turned into images', async () => {
    const { page } = await open();
    const lists = (await (await fetch(`${stack.baseUrl}/api/watchlists`)).json()) as {
      watchlists: Array<{ id: string }>;
    };
    await page.goto(`${stack.baseUrl}/brief/${lists.watchlists[0]!.id}`);
    await page.getByRole('button', { name: 'Print / Save as PDF' }).waitFor();
    await page.locator('.brief-country .sparkline').first().waitFor();
    await page.locator('.brief-movers tbody tr').first().waitFor();
    await page.emulateMedia({ media: 'print' });
    expect(await page.getByRole('button', { name: 'Print / Save as PDF' }).isVisible()).toBe(false);
    expect(await page.locator('.app-nav').isVisible()).toBe(false);
    const badge = page.locator('.brief-country .tier-badge').first();
    expect(await badge.evaluate((el) => getComputedStyle(el).printColorAdjust)).toBe('exact');
    expect(await badge.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe(
      'rgba(0, 0, 0, 0)',
    );

    const pdf = resolve(SCREENSHOT_DIR, 'brief.pdf');
    await page.pdf({ path: pdf, format: 'A4', printBackground: true });
    expect(statSync(pdf).size).toBeGreaterThan(10_000);
    for (const old of readdirSync(SCREENSHOT_DIR).filter((f) => f.startsWith('brief-page'))) {
      rmSync(resolve(SCREENSHOT_DIR, old));
    }
    execFileSync('/usr/bin/pdftoppm', [
      '-png',
      '-r',
      '60',
      pdf,
      resolve(SCREENSHOT_DIR, 'brief-page'),
    ]);
    const images = readdirSync(SCREENSHOT_DIR).filter((f) => /^brief-page-\d+\.png$/.test(f));
    expect(images.length).toBeGreaterThanOrEqual(1);
  });

  it('prints the overview and the country page with controls hidden', async () => {
    const { page } = await open();
    await page.emulateMedia({ media: 'print' });
    await page.goto(`${stack.baseUrl}/`);
    await page.locator('.hotspot-table tbody tr').first().waitFor();
    expect(await page.locator('.filter-bar').isVisible()).toBe(false);
    expect(await page.locator('.follow-button').first().isVisible()).toBe(false);
    const tableWidth = await page.locator('.hotspot-table').evaluate((el) => el.scrollWidth);
    const pageWidth = await page.evaluate(() => document.documentElement.clientWidth);
    expect(tableWidth).toBeLessThanOrEqual(pageWidth);
    await page.pdf({
      path: resolve(SCREENSHOT_DIR, 'overview.pdf'),
      format: 'A4',
      printBackground: true,
    });
    await page.goto(`${stack.baseUrl}/country/${mover.iso}`);
    await page.getByTestId('country-risk').waitFor();
    expect(await page.locator('.country-actions').isVisible()).toBe(false);
    await page.pdf({
      path: resolve(SCREENSHOT_DIR, 'country.pdf'),
      format: 'A4',
      printBackground: true,
    });
  });
});
