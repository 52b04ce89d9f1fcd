import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { openAppStore } from '../helpers/history-store.js';
import {
  BATCH_INTERVAL_MS,
  startHistoryStack,
  type ExportShape,
} from '../helpers/history-stack.js';

/*
 * The BFF records every batch by itself: three batches pass with no page requested, and every
 * country has a point per batch, whichever shape the upstream's export has. One store (a database
 * on the run's PostgreSQL server) for the file; each test records in its own stretch of time.
 */
const DAY = 86_400_000;
const era = (n: number): number => Date.UTC(2026, 0, 1) + n * 10 * DAY;

let store: HistoryStore;
beforeAll(async () => {
  store = await openAppStore();
}, 60_000);
afterAll(async () => {
  await store?.close();
});

const cases: Array<[ExportShape, string, number]> = [
  ['array', 'export_json', 1],
  ['keyed', 'export_json', 2],
  ['csv-only', 'export_csv', 3],
];

describe.each(cases)('recording from an upstream whose export is %s', (shape, source, n) => {
  it('records three batches that pass with no page open, at most 6 requests each', async () => {
    const start = era(n);
    const stack = await startHistoryStack(store, { start, shape });
    try {
      const perBatch: number[] = [];
      for (let i = 0; i < 3; i += 1) {
        const before = stack.demo.requestCount();
        await stack.nextBatch();
        perBatch.push(stack.demo.requestCount() - before);
      }
      const range = { from: new Date(start), to: new Date(start + DAY) };
      const batches = await store.batches(range);
      expect(batches.filter((b) => b.countryCount > 0).map((b) => b.source)).toEqual(
        Array(4).fill(source),
      );
      const asOfs = batches.filter((b) => b.countryCount > 0).map((b) => b.asOf.getTime());
      const first = Math.floor(start / BATCH_INTERVAL_MS) * BATCH_INTERVAL_MS;
      expect(asOfs).toEqual([0, 1, 2, 3].map((i) => first + i * BATCH_INTERVAL_MS));
      expect(batches[0]?.countryCount).toBeGreaterThan(150);
      const ukr = await store.countrySeries('UKR', range);
      expect(ukr).toHaveLength(4);
      expect(ukr.every((row) => row.categories && Object.keys(row.categories).length === 10)).toBe(
        true,
      );
      // Watch (the probe) + the export (+ the CSV after an unusable JSON), each batch.
      expect(perBatch.every((count) => count <= 6)).toBe(true);
      expect(perBatch).toEqual(Array(3).fill(shape === 'csv-only' ? 3 : 2));
    } finally {
      await stack.close();
    }
  });
});

describe('recording', () => {
  it('archives the events of the export, once however often they are received', async () => {
    const stack = await startHistoryStack(store, { start: era(4) });
    try {
      const query = {
        isos: ['UKR'],
        q: null,
        role: null,
        breaking: null,
        before: null,
        limit: 500,
      };
      const range = { from: new Date(era(4) - 3 * DAY), to: new Date(era(4) + DAY) };
      const first = await store.events({ ...query, ...range });
      expect(first.length).toBeGreaterThan(0);
      await stack.nextBatch();
      const second = await store.events({ ...query, ...range });
      const ids = new Set(second.map((e) => `${e.url}|${e.ts.toISOString()}`));
      expect(ids.size).toBe(second.length);
      expect(second.length).toBeGreaterThanOrEqual(first.length);
    } finally {
      await stack.close();
    }
  });

  it('a restarted BFF (or a second one) does not record a batch twice', async () => {
    const start = era(5);
    const a = await startHistoryStack(store, { start });
    const b = await startHistoryStack(store, { start });
    await Promise.all([a.close(), b.close()]);
    const range = { from: new Date(start - DAY), to: new Date(start + DAY) };
    expect((await store.batches(range)).filter((row) => row.countryCount > 0)).toHaveLength(1);
  });

  it('reads feed_history as earlier global points', async () => {
    const start = era(6);
    const stack = await startHistoryStack(store, { start });
    await stack.close();
    const points = await store.batches({ from: new Date(start - DAY), to: new Date(start) });
    const feed = points.filter((row) => row.source === 'feed_history');
    expect(feed.length).toBeGreaterThan(0);
    expect(feed.every((row) => typeof row.globalIndex === 'number')).toBe(true);
  });
});
