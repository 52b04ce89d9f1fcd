import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium } from '../../test/e2e/browser.js';
import { startStack } from '../../test/helpers/stack.js';
import { SITES_MAX } from '../../src/shared/sites-api.js';
import { sitesCsv } from './sites.js';

// (9b) Our sites on the map at 20,000 sites, in Debian's Chromium against the built app: what
// the layer downloads (`/api/sites/points` beside the ten pages of `/api/sites` it read before),
// and the time from the points' last byte to the first frame with the sites drawn.

const LOADS = 7;
const RECEIVED = 'grd:sites-received';
const DRAWN = 'grd:sites-drawn';

export interface SitesMapLoad {
  /** From the points answer's last byte (Resource Timing responseEnd) to the first frame drawn. */
  afterDataMs: number;
  /** From the layer having the parsed points (its effect) to the first frame drawn. */
  afterParsedMs: number;
  /** From the request's start to the answer's last byte. */
  fetchMs: number;
  /** Bytes on the wire (the browser's encodedBodySize) and decoded. */
  encodedBytes: number;
  decodedBytes: number;
  markers: number;
}

export interface SitesMapBench {
  sites: number;
  pointsBytes: { identity: number; gzip: number; br: number };
  /** The ten pages of `/api/sites?limit=2000` the layer read before, uncompressed. */
  listBytes: number;
  loads: SitesMapLoad[];
}

async function rawBytes(url: string, encoding: string): Promise<number> {
  const res = await fetch(url, { headers: { 'accept-encoding': encoding } });
  // Node's fetch decodes the body; the header says what crossed the wire.
  const length = Number(res.headers.get('content-length') ?? NaN);
  const body = await res.arrayBuffer();
  return Number.isFinite(length) ? length : body.byteLength;
}

async function timeLoad(page: Page, url: string): Promise<SitesMapLoad> {
  await page.goto(url);
  await page.evaluate(
    (names) =>
      new Promise<void>((done) => {
        const observer = new PerformanceObserver(() => {
          if (!names.every((n) => performance.getEntriesByName(n, 'mark').length > 0)) return;
          observer.disconnect();
          done();
        });
        observer.observe({ type: 'mark', buffered: true });
      }),
    [RECEIVED, DRAWN],
  );
  // No named functions inside: tsx would wrap them in a helper the page does not have.
  return page.evaluate(
    ([received, drawn]) => {
      const [receivedAt, drawnAt] = [received, drawn].map(
        (name) => performance.getEntriesByName(name, 'mark')[0]?.startTime ?? NaN,
      ) as [number, number];
      const entry = performance
        .getEntriesByType('resource')
        .find((e) => e.name.endsWith('/api/sites/points')) as PerformanceResourceTiming | undefined;
      return {
        afterDataMs: drawnAt - (entry?.responseEnd ?? NaN),
        afterParsedMs: drawnAt - receivedAt,
        fetchMs: (entry?.responseEnd ?? NaN) - (entry?.requestStart ?? NaN),
        encodedBytes: entry?.encodedBodySize ?? NaN,
        decodedBytes: entry?.decodedBodySize ?? NaN,
        markers: document.querySelectorAll('.world-map .site-marker, .world-map .site-cluster')
          .length,
      };
    },
    [RECEIVED, DRAWN] as const,
  );
}

export async function runSitesMapBench(
  clientDir = resolve(import.meta.dirname, '../../dist/client'),
): Promise<SitesMapBench | null> {
  if (!existsSync(resolve(clientDir, 'index.html'))) return null;
  const stack = await startStack({
    clientDir,
    config: { history: { databaseUrl: null, retentionDays: null } },
  });
  const browser = await launchChromium();
  try {
    await stack.bff.historyIdle();
    const imported = await fetch(`${stack.baseUrl}/api/sites/import`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv' },
      body: new Uint8Array(sitesCsv()),
    });
    const answer = (await imported.json()) as { total: number };
    if (answer.total !== SITES_MAX) throw new Error(`${answer.total} sites imported`);
    const points = `${stack.baseUrl}/api/sites/points`;
    const pointsBytes = {
      identity: await rawBytes(points, 'identity'),
      gzip: await rawBytes(points, 'gzip'),
      br: await rawBytes(points, 'br'),
    };
    let listBytes = 0;
    let cursor: string | null = null;
    do {
      const res: Response = await fetch(
        `${stack.baseUrl}/api/sites?limit=2000${cursor ? `&cursor=${cursor}` : ''}`,
      );
      const text: string = await res.text();
      listBytes += Buffer.byteLength(text);
      cursor = (JSON.parse(text) as { next_cursor: string | null }).next_cursor;
    } while (cursor !== null);

    const loads: SitesMapLoad[] = [];
    for (let i = 0; i < LOADS; i += 1) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      loads.push(await timeLoad(page, `${stack.baseUrl}/?sites=1`));
      await context.close();
    }
    return { sites: answer.total, pointsBytes, listBytes, loads };
  } finally {
    await browser.close();
    await stack.close();
  }
}
