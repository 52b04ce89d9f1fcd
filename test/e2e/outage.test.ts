import { describe, expect, it } from 'vitest';
import { HOUR, TestClock } from '../helpers/clock.js';
import { screenshotPath, waitForMap, waitForPanels } from './browser.js';
import { browserSuite } from './suite.js';

// Issue 19, point 14: during an outage a phone shows one plain line that says what failed and
// from when the data on screen is, not three boxes that each say it (banner, overdue note, the
// panels' stale notes), and no internal wording.
const clock = new TestClock();
const suite = browserSuite({ now: clock.now, demo: { now: clock.now } });

const PHONE = { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true };

/** "23 Nov 2026, 03:00 UTC": how the page writes the time of the data it shows. */
function utc(iso: string): string {
  const d = new Date(iso);
  const month = d.toLocaleString('en-GB', { month: 'short', timeZone: 'UTC' });
  const hh = String(d.getUTCHours()).padStart(2, '0');
  const mm = String(d.getUTCMinutes()).padStart(2, '0');
  return `${d.getUTCDate()} ${month} ${d.getUTCFullYear()}, ${hh}:${mm} UTC`;
}

describe('an outage on a phone (issue 19, point 14)', () => {
  it('is one short line with the date of the data shown, and nothing else says it', async () => {
    const { stack } = suite;
    // The BFF has the overview's data, then the data service goes down for most of a day (the
    // BFF serves its last answers for 24 hours: shared/freshness.ts staleIfErrorMs).
    for (const path of ['/api/status', '/api/countries', '/api/v1/hotspots?limit=20']) {
      expect((await fetch(`${stack.baseUrl}${path}`)).status).toBe(200);
    }
    const asOf = ((await (await fetch(`${stack.baseUrl}/api/status`)).json()) as { as_of: string })
      .as_of;
    stack.upstream.setFaults({ outage: true });
    clock.advance(20 * HOUR);
    // The BFF finds out when it next asks (in the background: the copy it has is served).
    await expect
      .poll(async () => {
        expect((await fetch(`${stack.baseUrl}/api/countries`)).status).toBe(200);
        const status = (await (await fetch(`${stack.baseUrl}/api/status`)).json()) as {
          upstream: { health: string };
        };
        return status.upstream.health;
      })
      .toBe('down');

    const { page } = await suite.open(PHONE);
    // The phone's clock reads the BFF's, so the data's age is said as the BFF's clock has it.
    await page.clock.install({ time: clock.t });
    await page.goto(`${stack.baseUrl}/`);
    await waitForMap(page, 20);
    await waitForPanels(page);

    const banner = page.locator('.status-banner');
    await banner.waitFor();
    const lines = await banner.locator('p').allInnerTexts();
    expect(lines).toHaveLength(1);
    const line = lines[0]!;
    expect(line).toContain(utc(asOf));
    expect(line).toMatch(/\(2\d h ago\)/);
    // Plain words: not the BFF's sentence for operators (the service's name, a status code).
    expect(line).not.toMatch(/Risk API|\(\d{3}\)|cached|reserve|upstream/i);
    // Short: at most four lines of text on a 375 px screen (six with the operators' sentence).
    const text = banner.locator('p');
    const { height, lineHeight } = await text.evaluate((p) => ({
      height: p.getBoundingClientRect().height,
      lineHeight: Number.parseFloat(getComputedStyle(p).lineHeight),
    }));
    expect(Math.round(height / lineHeight)).toBeLessThanOrEqual(4);

    // No other box says it again: no stale note in a panel, no second status message.
    const otherNotes = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('[role="status"], [role="alert"], .stale-note')]
        .filter((el) => !el.closest('.status-banner') && el.innerText.trim() !== '')
        .map((el) => el.innerText.trim()),
    );
    expect(otherNotes).toEqual([]);
    await page.screenshot({ path: screenshotPath('outage-375'), fullPage: false });
  });
});
