import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, screenshotPath } from './browser.js';
import { startHistoryE2eStack, type HistoryE2eStack } from './history-stack.js';

/*
 * An embed in a real browser (issue 34): a page of the allowed site frames it and shows the map
 * with its batch time; a page of another loopback origin is refused, whether its browser sends a
 * Referer (the BFF answers 403) or not (Content-Security-Policy frame-ancestors blocks the frame).
 */

/** A parent page on its own loopback origin, framing `src`; `referrer` as its meta tag says. */
async function parentSite(): Promise<{
  origin: string;
  server: Server;
  frame: (src: string, referrer?: string) => string;
}> {
  let body = '';
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    server,
    frame: (src, referrer = 'strict-origin-when-cross-origin') => {
      body =
        `<!doctype html><html lang="en"><head><meta name="referrer" content="${referrer}"><title>Intranet</title></head>` +
        `<body style="margin:0"><h1 style="font:16px sans-serif;margin:8px">Our intranet</h1>` +
        `<iframe src="${src}" title="Global risk map" style="border:0;width:100%;height:640px"></iframe></body></html>`;
      return `${origin}/`;
    },
  };
}

let stack: HistoryE2eStack;
let browser: Browser;
let allowed: Awaited<ReturnType<typeof parentSite>>;
let other: Awaited<ReturnType<typeof parentSite>>;
let embedUrl: string;
let embedId: string;

beforeAll(async () => {
  stack = await startHistoryE2eStack(2);
  allowed = await parentSite();
  other = await parentSite();
  const made = await fetch(`${stack.baseUrl}/api/embeds`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Intranet map',
      view: 'map',
      origin: allowed.origin,
      expires_in_days: 7,
    }),
  });
  expect(made.status).toBe(201);
  const answer = (await made.json()) as { url: string; embed: { id: string } };
  embedUrl = answer.url;
  embedId = answer.embed.id;
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => allowed?.server.close(resolve));
  await new Promise((resolve) => other?.server.close(resolve));
  await stack?.close();
});

/** The iframe's frame once its document (ours, or the browser's error page) has loaded. */
async function childFrame(page: Page): Promise<Frame> {
  const handle = await page.waitForSelector('iframe');
  await expect.poll(async () => (await handle.contentFrame())?.url() ?? '').not.toBe('');
  const frame = await handle.contentFrame();
  if (!frame) throw new Error('the iframe has no frame');
  await frame.waitForLoadState('load');
  return frame;
}

describe('an embedded map', () => {
  it('is shown inside a page of its origin, with the batch time and a link back', async () => {
    for (const width of [1440, 375]) {
      const page = await browser.newPage({ viewport: { width, height: 800 } });
      await page.goto(allowed.frame(embedUrl));
      const frame = await childFrame(page);
      await expect.poll(() => frame.locator('svg[role="img"] path').count()).toBeGreaterThan(100);
      expect(await frame.locator('footer').innerText()).toMatch(
        /Data generated \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC · Open in the Global Risk Dashboard/,
      );
      await page.screenshot({ path: screenshotPath(`embed-map-${width}`), fullPage: true });
      await page.close();
    }
    const listed = await fetch(`${stack.baseUrl}/api/embeds`);
    const embeds = ((await listed.json()) as { embeds: { id: string; uses: number }[] }).embeds;
    expect(embeds.find((e) => e.id === embedId)?.uses).toBe(2);
  });

  it('is refused inside a page of another origin, with or without a Referer', async () => {
    for (const referrer of ['strict-origin-when-cross-origin', 'no-referrer']) {
      const page = await browser.newPage();
      const answers: number[] = [];
      page.on('response', (response) => {
        if (response.url() === embedUrl) answers.push(response.status());
      });
      await page.goto(other.frame(embedUrl, referrer));
      const frame = await childFrame(page);
      // 403 when the Referer names the other site; else served, and the browser blocks the frame.
      await expect.poll(() => answers).toEqual([referrer === 'no-referrer' ? 200 : 403]);
      expect(await frame.locator('svg[role="img"]').count()).toBe(0);
      expect(await frame.locator('text=Open in the Global Risk Dashboard').count()).toBe(0);
      await page.close();
    }
  });
});
