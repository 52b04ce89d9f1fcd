import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoUpstream, type DemoUpstream } from '../../src/demo-upstream/server.js';
import { buildApp } from '../../src/server/compose/app.js';
import { Secret } from '../../src/server/secret.js';
import { insertAlerts } from '../../src/server/store/alerts.js';
import { HistoryStore } from '../../src/server/store/history-store.js';
import { TestClock } from '../helpers/clock.js';
import { ManualScheduler } from '../helpers/manual-scheduler.js';
import { testConfig } from '../helpers/test-config.js';
import { launchChromium, openPage, screenshotPath, type WatchedPage } from './browser.js';

/*
 * Two people behind an SSO proxy (TRUSTED_PROXY_AUTH_HEADER, each browser context sending its
 * own user): one acknowledges an alert with a disposition and a note, the other sees who did
 * and how, filters the inbox by it in the URL, and keeps their own unread count.
 */
const USER_HEADER = 'x-forwarded-user';
const builtClient = resolve(import.meta.dirname, '../../dist/client');
const start = Date.UTC(2026, 10, 10, 10, 30);

let browser: Browser;
let demo: DemoUpstream;
let store: HistoryStore;
let app: FastifyInstance;
let baseUrl: string;
let listId: number;
const pages: WatchedPage[] = [];

beforeAll(async () => {
  if (!existsSync(builtClient)) throw new Error('dist/client is missing: run `npm run build`');
  const clock = new TestClock(start);
  demo = await startDemoUpstream({ host: '127.0.0.1', port: 0, now: clock.now });
  store = await HistoryStore.open({ dataDir: null, databaseUrl: null, retentionDays: null });
  app = (
    await buildApp(
      testConfig({
        access: {
          dashboardToken: null,
          trustedProxyAuthHeader: USER_HEADER,
          // The browser connects from loopback: the "proxy" is this test.
          trustedProxyAddresses: ['127.0.0.1'],
          allowedHosts: ['localhost', '127.0.0.1', '::1'],
          allowAnonymous: false,
        },
      }),
      {
        upstream: {
          mode: 'demo',
          baseUrl: demo.url,
          apiKey: new Secret(demo.issueKey('Custom', { limit: 5000 })),
        },
        clientDir: builtClient,
        now: clock.now,
        historyStore: store,
        scheduler: new ManualScheduler(clock.now),
      },
    )
  ).app;
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const created = await app.inject({
    method: 'POST',
    url: '/api/watchlists',
    headers: { [USER_HEADER]: 'ana' },
    payload: { name: 'Sahel', countries: ['MLI', 'NER'] },
  });
  listId = Number(created.json().watchlist.id);
  const numbers = { as_of: new Date(start).toISOString(), risk: 61, tier: 'high', active: 52 };
  await insertAlerts(
    store.db,
    [
      ['MLI', 'Mali'],
      ['NER', 'Niger'],
    ].map(([iso, country]) => ({
      watchlistId: listId,
      ruleKey: 'active_change:10',
      kind: 'active_change' as const,
      iso: iso!,
      country: country!,
      batchAsOf: new Date(start),
      message: 'Active +12.0 (40.0 → 52.0)',
      before: numbers,
      after: numbers,
    })),
  );
  browser = await launchChromium();
});
afterAll(async () => {
  for (const p of pages) await p.close();
  await browser?.close();
  await app?.close();
  await store?.close();
  await demo?.close();
});

async function openAs(user: string): Promise<WatchedPage> {
  const watched = await openPage(browser, { extraHTTPHeaders: { [USER_HEADER]: user } });
  pages.push(watched);
  return watched;
}

describe('an acknowledgement the team sees', () => {
  it('ana acknowledges Mali as "no impact" with a note; ben sees who, how and the note', async () => {
    const ana = await openAs('ana');
    await ana.page.goto(`${baseUrl}/alerts`);
    const mali = ana.page.locator('.alert-item').filter({ hasText: 'Mali (MLI)' });
    await mali.getByRole('button', { name: /^Acknowledge\W+Mali$/ }).click();
    const form = ana.page.getByRole('form', { name: 'Acknowledge: Mali' });
    await form.getByRole('radio', { name: 'No impact' }).check();
    await form
      .getByLabel('Note (optional)')
      .fill('Checked with the Bamako office: <b>no</b> change.');
    await form.getByRole('button', { name: 'Acknowledge' }).click();
    await expect
      .poll(() => mali.locator('.ack-line').textContent())
      .toMatch(/^No impact · acknowledged by ana at \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    await mali.getByRole('button', { name: /^Mark read\W+Mali$/ }).click();
    await expect
      .poll(() => ana.page.getByRole('link', { name: 'Alerts 1 unread' }).count())
      .toBe(1);
    expect(ana.errors).toEqual([]);

    const ben = await openAs('ben');
    await ben.page.goto(`${baseUrl}/alerts?state=acknowledged`);
    const seen = ben.page.locator('.alert-item');
    await expect.poll(() => seen.count()).toBe(1);
    expect(await seen.first().textContent()).toContain('Mali (MLI)');
    expect(await seen.locator('.ack-line').textContent()).toMatch(
      /No impact · acknowledged by ana at .* UTC/,
    );
    // The note is shown as the text typed, never as markup.
    expect(await seen.locator('.ack-note').textContent()).toBe(
      'Checked with the Bamako office: <b>no</b> change.',
    );
    expect(await seen.locator('.ack-note b').count()).toBe(0);
    // Ana's read is hers: ben still has both alerts unread.
    await expect
      .poll(() => ben.page.getByRole('link', { name: 'Alerts 2 unread' }).count())
      .toBe(1);
    await ben.page.screenshot({ path: screenshotPath('alerts-acknowledged'), fullPage: true });

    // The filters live in the URL: choosing "Not acknowledged" leaves Niger alone.
    await ben.page.getByLabel('State').selectOption('unacknowledged');
    await ben.page.waitForURL(/[?&]state=unacknowledged/);
    await expect
      .poll(() => seen.allTextContents())
      .toEqual([expect.stringContaining('Niger (NER)')]);
    await ben.page.getByLabel('State').selectOption('');
    await ben.page.getByLabel('Disposition').selectOption('no_impact');
    await ben.page.waitForURL(/[?&]disposition=no_impact/);
    await expect.poll(() => seen.allTextContents()).toEqual([expect.stringContaining('Mali')]);
    expect(ben.errors).toEqual([]);
  });

  it('ben changes it; ana sees the change and who made it', async () => {
    const ben = await openAs('ben');
    await ben.page.goto(`${baseUrl}/alerts?iso=MLI`);
    const mali = ben.page.locator('.alert-item');
    await mali.getByRole('button', { name: /^Change acknowledgement\W+Mali$/ }).click();
    const form = ben.page.getByRole('form', { name: 'Acknowledge: Mali' });
    await form.getByRole('radio', { name: 'Some impact' }).check();
    await form.getByRole('button', { name: 'Save change' }).click();
    await expect
      .poll(() => mali.locator('.ack-line').textContent())
      .toMatch(/^Some impact · acknowledged by ben .*\(changed 1×\)/);

    const ana = await openAs('ana');
    await ana.page.goto(`${baseUrl}/alerts?disposition=some_impact`);
    await expect
      .poll(() => ana.page.locator('.alert-item .ack-line').allTextContents())
      .toEqual([expect.stringMatching(/^Some impact · acknowledged by ben/)]);
  });
});

describe('each person’s unread count on the watchlist pages', () => {
  it('cy marks an alert read on the list’s page; both pages show cy 1 unread, dan still 2', async () => {
    const sahel = (page: WatchedPage['page']) =>
      page.locator('ul.watchlists li').filter({ hasText: 'Sahel' }).locator('.list-unread');
    const cy = await openAs('cy');
    await cy.page.goto(`${baseUrl}/watchlists`);
    await expect.poll(() => sahel(cy.page).textContent()).toBe('2 unread');
    await cy.page.getByRole('link', { name: 'Sahel' }).click();
    const panel = cy.page.getByRole('region', { name: 'Latest alerts' });
    await expect.poll(() => panel.locator('.alert-count').textContent()).toBe('2 unread');
    await panel.getByRole('button', { name: /^Mark read\W+Niger$/ }).click();
    await expect.poll(() => panel.locator('.alert-count').textContent()).toBe('1 unread');
    // Back to the index in the app (no reload): its count, shown a moment ago, follows.
    await cy.page.getByRole('link', { name: '← All watchlists' }).click();
    await expect.poll(() => sahel(cy.page).textContent()).toBe('1 unread');
    expect(cy.errors).toEqual([]);

    const dan = await openAs('dan');
    await dan.page.goto(`${baseUrl}/watchlists`);
    await expect.poll(() => sahel(dan.page).textContent()).toBe('2 unread');
    await dan.page.goto(`${baseUrl}/watchlists/${listId}`);
    await expect
      .poll(() =>
        dan.page
          .getByRole('region', { name: 'Latest alerts' })
          .locator('.alert-count')
          .textContent(),
      )
      .toBe('2 unread');
    expect(dan.errors).toEqual([]);
  });
});

describe('a person’s delivery settings', () => {
  it('a time zone nobody knows is refused with the server’s words; a real one is saved', async () => {
    const ana = await openAs('ana');
    await ana.page.goto(`${baseUrl}/alerts`);
    const form = ana.page.getByRole('form', { name: 'Your delivery settings' });
    await form.getByLabel('Daily digest').selectOption('9');
    await form.getByLabel(/^Time zone/).fill('Mars/Olympus_Mons');
    await form.getByRole('button', { name: 'Save settings' }).click();
    await expect
      .poll(() => form.getByRole('alert').textContent())
      .toMatch(/time_zone must be an IANA time zone/);
    await form.getByLabel(/^Time zone/).fill('Asia/Tokyo');
    await form.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => form.getByRole('status').count()).toBe(1);
    const saved = await app.inject({ url: '/api/me/settings', headers: { [USER_HEADER]: 'ana' } });
    expect(saved.json().settings).toMatchObject({ digest_hour: 9, time_zone: 'Asia/Tokyo' });
  });
});
