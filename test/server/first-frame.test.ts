import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { countryFrame, overviewFrame } from '../../src/server/services/rendering/first-frame.js';
import { get, startTestStack } from '../helpers/bff.js';
import type { TestClock } from '../helpers/clock.js';
import type { Stack } from '../helpers/stack.js';

/* Issue 32, point 1: the pages' first frame, rendered by the server once per batch. */
let clientDir: string;
let stack: (Stack & { clock: TestClock }) | null = null;
beforeAll(() => {
  clientDir = mkdtempSync(join(tmpdir(), 'grd-frame-'));
  writeFileSync(
    join(clientDir, 'index.html'),
    '<!doctype html><html lang="en"><title>Risk</title><body><div id="root"></div></body></html>',
  );
});
afterEach(async () => {
  await stack?.close();
  stack = null;
});
afterAll(() => rmSync(clientDir, { recursive: true, force: true }));

/**
 * Waits until `path` comes with its frame. A cold stack's first page may be the plain one: the
 * frame waits at most 300 ms for the data, and a busy machine's first upstream round trip took
 * longer (a loaded run); that late answer still fills the cache for the next page.
 */
async function untilFramed(path: string, frame: RegExp): Promise<void> {
  await expect.poll(async () => (await get(stack!, path)).body, { timeout: 30_000 }).toMatch(frame);
}

describe('first frame', () => {
  it('the overview arrives with the index and 20 hotspots, the same bytes for the batch', async () => {
    stack = await startTestStack({ clientDir });
    await untilFramed('/', /first-frame/);
    const first = await get(stack, '/');
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toMatch(/^text\/html/);
    expect(first.body).toMatch(/data-testid="frame-index">\d+\.\d\d</);
    expect(first.body.match(/<tr><td class="num">/g)).toHaveLength(20);
    expect(first.body).toContain('<div id="root" class="behind-first-frame"></div>');
    const again = await get(stack, '/');
    expect(again.body).toBe(first.body);
  });

  it('a country page has its frame; an unknown or malformed code gets the plain page', async () => {
    stack = await startTestStack({ clientDir });
    await untilFramed('/country/ukr', /first-frame/);
    const ukr = await get(stack, '/country/ukr');
    expect(ukr.body).toMatch(/<h1>Ukraine <span class="iso">UKR<\/span><\/h1>/);
    for (const path of ['/country/XXQ', '/country/%3Cscript%3E']) {
      const plain = await get(stack, path);
      expect(plain.statusCode).toBe(200);
      expect(plain.body).toContain('<div id="root"></div>');
      expect(plain.body).not.toContain('first-frame');
    }
  });

  it('says the language the SPA will show: ?lang= over Accept-Language, unknown -> en (issue 34)', async () => {
    stack = await startTestStack({ clientDir });
    const arabic = await get(stack, '/', {
      headers: { 'accept-language': 'de, ar;q=0.9, fr;q=0.8' },
    });
    expect(arabic.body).toContain('<html lang="ar" dir="rtl">');
    expect(arabic.headers.vary).toMatch(/accept-language/i);
    const french = await get(stack, '/country/UKR?lang=fr', {
      headers: { 'accept-language': 'ar' },
    });
    expect(french.body).toContain('<html lang="fr" dir="ltr">');
    const unknown = await get(stack, '/?lang=zz', { headers: { 'accept-language': 'ar' } });
    expect(unknown.body).toContain('<html lang="en">');
  });

  it('escapes upstream text: names, tiers, headlines', () => {
    const evil = '<img src=x onerror=alert(1)>';
    const html =
      overviewFrame(
        { as_of: '2026-11-28T10:00:00Z', global: { ggri: 50, tier: evil } },
        { hotspots: [{ iso: '"><b', name: evil, risk: 80, tier: evil, lat: 1, lng: 2 }] },
      ) +
      countryFrame({
        as_of: '2026-11-28T10:00:00Z',
        country: { iso: 'UKR', name: evil, events: [{ ts: evil, headline: evil }] },
      });
    expect(html).not.toContain('<img');
    expect(html).not.toContain('"><b');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });
});
