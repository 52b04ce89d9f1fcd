import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './axe.js';
import {
  launchChromium,
  openPage,
  screenshotPath,
  type WatchedPage,
  PAGE_WAIT_MS,
} from './browser.js';
import { startHistoryE2eStack, type HistoryE2eStack } from './history-stack.js';

// Issue 22: the dashboard as it stood at a past recorded batch, in Chromium against the built
// SPA and a BFF that recorded 8 demo batches (four days on the 03:00/10:00 schedule).
const BATCHES = 8;
let stack: HistoryE2eStack;
let browser: Browser;
const opened: WatchedPage[] = [];

interface BatchRef {
  id: string;
  as_of: string;
}
interface HotspotsAnswer {
  as_of: string;
  hotspots: { iso: string; name: string; risk: number; lat: number; lng: number }[];
}

let batches: BatchRef[];

beforeAll(async () => {
  stack = await startHistoryE2eStack(BATCHES);
  browser = await launchChromium();
  const listed = (await (await fetch(`${stack.baseUrl}/api/batches`)).json()) as {
    batches: BatchRef[];
  };
  batches = listed.batches;
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

async function open(options?: Parameters<typeof openPage>[1]): Promise<Page> {
  const watched = await openPage(browser, options);
  opened.push(watched);
  return watched.page;
}

async function hotspotsAt(asOf: string | null): Promise<HotspotsAnswer> {
  const query = asOf === null ? '' : `&as_of=${encodeURIComponent(asOf)}`;
  const response = await fetch(`${stack.baseUrl}/api/v1/hotspots?limit=20${query}`);
  return (await response.json()) as HotspotsAnswer;
}

/** "10 Nov 2026, 10:00 UTC", as the SPA writes a batch time. */
function utc(iso: string): string {
  const d = new Date(iso);
  const month = d.toLocaleString('en-GB', { month: 'short', timeZone: 'UTC' });
  const hh = String(d.getUTCHours()).padStart(2, '0');
  const mm = String(d.getUTCMinutes()).padStart(2, '0');
  return `${d.getUTCDate()} ${month} ${d.getUTCFullYear()}, ${hh}:${mm} UTC`;
}

/** The first row's cell under the "Risk" heading of the hotspot table. */
const firstRowRisk = (page: Page) =>
  page.locator('.hotspot-table').evaluate((table) => {
    const heads = [...table.querySelectorAll('thead th')].map((th) => th.textContent ?? '');
    const column = heads.findIndex((text) => /^Risk\b/.test(text.trim()));
    const cells = table.querySelectorAll('tbody tr:first-child > *');
    return column < 0 ? '' : (cells[column]?.textContent ?? '').trim();
  });

describe('as of a recorded batch', () => {
  it('opens the overview as ranked then, says so with the batch id, keeps the batch across links and returns to the latest', async () => {
    expect(batches.length).toBeGreaterThanOrEqual(BATCHES);
    // An older batch whose top hotspot's risk differs from the latest's, so the page can only
    // show it by asking for that batch.
    const latest = await hotspotsAt(null);
    let past: BatchRef | undefined;
    let then: HotspotsAnswer | undefined;
    for (const batch of batches.slice(2)) {
      const answer = await hotspotsAt(batch.as_of);
      if (answer.hotspots[0]?.risk !== latest.hotspots[0]?.risk) {
        past = batch;
        then = answer;
        break;
      }
    }
    if (!past || !then) throw new Error('no recorded batch differs from the latest at the top');
    expect(then.as_of).toBe(past.as_of);

    const page = await open({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
    await page.goto(`${stack.baseUrl}/?as_of=${encodeURIComponent(past.as_of)}`);
    const bar = page.getByRole('region', { name: 'Batch shown' });
    await expect.poll(() => bar.innerText()).toContain(`Viewing the ${utc(past.as_of)} batch`);
    await expect(
      bar.getByRole('link', { name: past.id.slice(0, 12) }).getAttribute('href'),
    ).resolves.toBe(`/api/batches/${past.id}`);
    const top = then.hotspots[0];
    if (!top) throw new Error('no hotspot then');
    await expect.poll(() => firstRowRisk(page)).toBe(top.risk.toFixed(2));
    await page.screenshot({ path: screenshotPath('as-of-overview-1440') });
    expect(await seriousViolations(page)).toEqual([]);

    // A link to a country keeps the batch: the country page shows its numbers then.
    const countryThen = (await (
      await fetch(
        `${stack.baseUrl}/api/v1/country/${top.iso}?as_of=${encodeURIComponent(past.as_of)}`,
      )
    ).json()) as { as_of: string; country: { risk: number } };
    await page
      .locator('.hotspot-table tbody tr')
      .first()
      .getByRole('link', { name: new RegExp(top.name.slice(0, 4)) })
      .click();
    await page.waitForURL((url) => url.pathname === `/country/${top.iso}`);
    expect(new URL(page.url()).searchParams.get('as_of')).toBe(past.as_of);
    await expect.poll(() => bar.innerText()).toContain(`Viewing the ${utc(past.as_of)} batch`);
    expect(countryThen.as_of).toBe(past.as_of);
    // The country page's own risk figure: the overview's table shows the same number for this
    // country, and on a slow renderer the overview stays on screen while the country page's
    // chunk loads (at E2E_CPU_THROTTLE=6 the test then clicked the overview's "Back to the
    // latest", which leads to /).
    await expect
      .poll(() => page.getByTestId('country-risk').textContent())
      .toContain(countryThen.country.risk.toFixed(2));

    // Back to the latest: the same page, live, without the bar.
    await bar.getByRole('link', { name: 'Back to the latest' }).click();
    await page.waitForURL((url) => !url.searchParams.has('as_of'));
    expect(new URL(page.url()).pathname).toBe(`/country/${top.iso}`);
    await expect.poll(() => bar.count()).toBe(0);
  });

  it('steps back through the timeline with the keyboard and opens the batch chosen', async () => {
    const page = await open({ viewport: { width: 375, height: 812 }, isMobile: true });
    await page.goto(`${stack.baseUrl}/`);
    await page.getByText('Open a past batch').click();
    const slider = page.getByRole('slider', { name: /Batch/ });
    await expect.poll(() => slider.getAttribute('max')).toBe(String(batches.length - 1));
    await slider.focus();
    await page.keyboard.press('Home');
    const oldest = batches.at(-1);
    if (!oldest) throw new Error('no batch');
    await page.waitForURL((url) => url.searchParams.get('as_of') === oldest.as_of);
    const bar = page.getByRole('region', { name: 'Batch shown' });
    await expect.poll(() => bar.innerText()).toContain(`Viewing the ${utc(oldest.as_of)} batch`);
    // One step forward opens the next batch.
    await page.getByRole('slider', { name: /Batch/ }).focus();
    await page.keyboard.press('ArrowRight');
    const second = batches.at(-2);
    if (!second) throw new Error('no second batch');
    await page.waitForURL((url) => url.searchParams.get('as_of') === second.as_of);
    await page.screenshot({ path: screenshotPath('as-of-picker-375'), fullPage: false });
  });
});

describe('a watchlist as of a recorded batch', () => {
  it("shows the list's countries as they stood then, from the store, with the banner and a way back", async () => {
    const top = (await hotspotsAt(null)).hotspots.slice(0, 3);
    const made = await fetch(`${stack.baseUrl}/api/watchlists`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Then', countries: top.map((h) => h.iso), rules: [] }),
    });
    expect(made.status).toBe(201);
    const listId = ((await made.json()) as { watchlist: { id: string } }).watchlist.id;
    // A past batch in which the list's first country had another risk than now.
    const first = top[0];
    if (!first) throw new Error('no hotspot');
    let found: { batch: BatchRef; risk: number } | undefined;
    for (const batch of batches.slice(2)) {
      const then = (await (
        await fetch(
          `${stack.baseUrl}/api/v1/country/${first.iso}?as_of=${encodeURIComponent(batch.as_of)}`,
        )
      ).json()) as { country: { risk: number | null } };
      if (then.country.risk !== null && then.country.risk !== first.risk) {
        found = { batch, risk: then.country.risk };
        break;
      }
    }
    if (!found) throw new Error(`no past batch in which ${first.iso} had another risk`);

    const page = await open({ viewport: { width: 1440, height: 900 } });
    const asked = stack.demo.requestCount();
    await page.goto(
      `${stack.baseUrl}/watchlists/${listId}?as_of=${encodeURIComponent(found.batch.as_of)}`,
    );
    const bar = page.getByRole('region', { name: 'Batch shown' });
    await expect
      .poll(() => bar.innerText())
      .toContain(`Viewing the ${utc(found.batch.as_of)} batch`);
    const row = page
      .getByRole('region', { name: 'Countries of the watchlist' })
      .locator('tbody tr')
      .first();
    await expect.poll(() => row.innerText()).toContain(found.risk.toFixed(2));
    expect(await row.innerText()).not.toContain(first.risk.toFixed(2));
    await expect
      .poll(() => page.locator('main').innerText())
      .toContain(`Numbers of the batch of ${utc(found.batch.as_of)}`);
    await page.screenshot({ path: screenshotPath('as-of-watchlist-1440') });
    // Served from the store: the page asked the upstream nothing.
    await stack.bff.upstreamIdle();
    expect(stack.demo.requestCount()).toBe(asked);

    await bar.getByRole('link', { name: 'Back to the latest' }).click();
    await page.waitForURL((url) => !url.searchParams.has('as_of'));
    expect(new URL(page.url()).pathname).toBe(`/watchlists/${listId}`);
    await expect.poll(() => row.innerText()).toContain(first.risk.toFixed(2));
  });
});

describe('All countries and exposure as of a recorded batch', () => {
  interface CountriesAnswer {
    as_of: string;
    countries: { iso: string; name: string; risk: number | null }[];
  }
  interface ExposureAnswer {
    as_of: string;
    index: { now: number | null; trend: { as_of: string; index: number | null }[] };
  }
  const countriesAt = async (asOf: string | null): Promise<CountriesAnswer> => {
    const query = asOf === null ? '' : `?as_of=${encodeURIComponent(asOf)}`;
    return (await (
      await fetch(`${stack.baseUrl}/api/countries${query}`)
    ).json()) as CountriesAnswer;
  };
  const exposureAt = async (asOf: string | null): Promise<ExposureAnswer> => {
    const query = asOf === null ? '' : `&as_of=${encodeURIComponent(asOf)}`;
    const response = await fetch(`${stack.baseUrl}/api/exposure?weight=people${query}`);
    expect(response.status).toBe(200);
    return (await response.json()) as ExposureAnswer;
  };

  it('lists every country as it stood in that batch, under the banner', async () => {
    const latest = await countriesAt(null);
    const riskNow = new Map(latest.countries.map((c) => [c.iso, c.risk]));
    // A past batch and a country whose risk then differs from its latest.
    let found: { batch: BatchRef; iso: string; name: string; risk: number } | undefined;
    for (const batch of batches.slice(2)) {
      const then = await countriesAt(batch.as_of);
      const moved = then.countries.find((c) => c.risk !== null && c.risk !== riskNow.get(c.iso));
      if (moved && moved.risk !== null) {
        found = { batch, iso: moved.iso, name: moved.name, risk: moved.risk };
        break;
      }
    }
    if (!found) throw new Error('no country differs in a past batch from the latest');
    const page = await open({ viewport: { width: 1440, height: 900 } });
    const q = encodeURIComponent(found.name);
    await page.goto(
      `${stack.baseUrl}/?table=all&q=${q}&as_of=${encodeURIComponent(found.batch.as_of)}`,
    );
    const bar = page.getByRole('region', { name: 'Batch shown' });
    await expect
      .poll(() => bar.innerText())
      .toContain(`Viewing the ${utc(found.batch.as_of)} batch`);
    const panel = page.getByRole('region', { name: 'All countries', exact: true });
    await expect.poll(() => panel.innerText()).toContain('countries in the batch shown');
    const row = panel.locator('tbody tr').first();
    await expect.poll(() => row.innerText()).toContain(found.risk.toFixed(2));
    expect(await row.innerText()).not.toContain((riskNow.get(found.iso) ?? -1).toFixed(2));
  });

  it('/exposure shows our sites as of that batch: the index then and its trend up to it', async () => {
    const top = (await hotspotsAt(null)).hotspots.slice(0, 3);
    const imported = await fetch(`${stack.baseUrl}/api/sites/import`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(
        top.map((h, i) => ({
          ref: `S${i}`,
          name: `Site ${i}`,
          kind: 'office',
          lat: h.lat,
          lng: h.lng,
          people: 10 * (i + 1),
        })),
      ),
    });
    expect(((await imported.json()) as { created: unknown[] }).created).toHaveLength(top.length);
    const latest = await exposureAt(null);
    let past: BatchRef | undefined;
    let then: ExposureAnswer | undefined;
    for (const batch of batches.slice(2)) {
      const answer = await exposureAt(batch.as_of);
      if (answer.index.now !== null && answer.index.now !== latest.index.now) {
        past = batch;
        then = answer;
        break;
      }
    }
    if (!past || !then || then.index.now === null) {
      throw new Error('no past batch with another exposure index');
    }
    expect(then.as_of).toBe(past.as_of);
    expect(then.index.trend.at(-1)?.as_of).toBe(past.as_of);

    const page = await open({ viewport: { width: 1440, height: 900 } });
    await page.goto(
      `${stack.baseUrl}/exposure?index_view=table&as_of=${encodeURIComponent(past.as_of)}`,
    );
    const bar = page.getByRole('region', { name: 'Batch shown' });
    await expect.poll(() => bar.innerText()).toContain(`Viewing the ${utc(past.as_of)} batch`);
    await expect
      .poll(() => page.locator('main').innerText())
      .toContain(`Country numbers of the batch of ${utc(past.as_of)}`);
    const trend = page.getByRole('region', { name: 'Exposure index (people-weighted) table' });
    await expect.poll(() => trend.locator('tbody tr').count()).toBe(then.index.trend.length);
    await expect
      .poll(() => trend.locator('tbody tr').last().innerText())
      .toContain(then.index.now.toFixed(2));
  });
});

// Issue 33, point 3: a past batch's overview draws its hotspots as markers (placed where the
// latest list puts each country; the rows are the batch's), and the country page has its own
// as-of control: a day field and "A week ago" / "A month ago".
describe('the past within reach (issue 33, point 3)', () => {
  it.each([
    ['1440', { viewport: { width: 1440, height: 900 }, bypassCSP: true }],
    [
      '375',
      { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, bypassCSP: true },
    ],
  ])(
    'markers for a past batch, and a country opened at a day from its own page (%s px)',
    async (width, options) => {
      const past = batches[2]!;
      const then = await hotspotsAt(past.as_of);
      const page = await open(options);
      await page.goto(`${stack.baseUrl}/?as_of=${encodeURIComponent(past.as_of)}`);
      const markers = page.locator('.world-map .hotspot-marker');
      await expect
        .poll(() => markers.count(), { timeout: PAGE_WAIT_MS })
        .toBe(then.hotspots.length);
      await page
        .locator('.map-panel')
        .screenshot({ path: screenshotPath(`as-of-markers-${width}`) });

      const iso = then.hotspots[0]!.iso;
      await page.goto(`${stack.baseUrl}/country/${iso}`);
      await page.getByText('Open a past batch').click();
      await page.getByLabel('Batch of a day (UTC)').fill(past.as_of.slice(0, 10));
      await page.getByRole('button', { name: 'Open', exact: true }).click();
      await page.waitForURL((url) => url.searchParams.has('as_of'));
      expect(new URL(page.url()).pathname).toBe(`/country/${iso}`);
      const bar = page.getByRole('region', { name: 'Batch shown' });
      await expect.poll(() => bar.innerText(), { timeout: PAGE_WAIT_MS }).toContain('Viewing the');
      // The bar keeps the control, to go further back from there.
      expect(await bar.getByRole('button', { name: 'A week ago' }).isVisible()).toBe(true);
      await page.screenshot({ path: screenshotPath(`as-of-country-control-${width}`) });
      expect(await seriousViolations(page)).toEqual([]);
    },
  );
});
