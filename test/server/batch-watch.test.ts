import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { openAppStore } from '../helpers/history-store.js';
import { BATCH_INTERVAL_MS, startHistoryStack } from '../helpers/history-stack.js';

/*
 * The batch watch's timing, against a demo upstream over loopback: a check that could not see the
 * newest batch looks again within 30 seconds (not only at the next interval), and one that saw
 * it waits for the interval. Each case here was a one-line change of batch-recorder.ts that no
 * test caught.
 */
const DAY = 86_400_000;
const START = Date.UTC(2026, 1, 1) + 1000;
const RETRY_MS = 30_000;

let store: HistoryStore;
beforeAll(async () => {
  store = await openAppStore();
}, 60_000);
afterAll(async () => {
  await store?.close();
});

const recordedAsOfs = async (): Promise<number[]> =>
  (await store.batches({ from: new Date(START - DAY), to: new Date(START + DAY) }))
    .filter((row) => row.countryCount > 0)
    .map((row) => row.asOf.getTime());

describe('the batch watch', () => {
  it('after a failed look it looks again within 30 s and records the batch it missed', async () => {
    const stack = await startHistoryStack(store, { start: START });
    try {
      const first = Math.floor(START / BATCH_INTERVAL_MS) * BATCH_INTERVAL_MS;
      expect(await recordedAsOfs()).toEqual([first]);
      stack.demo.setFaults({ outage: true });
      await stack.nextBatch();
      expect(await recordedAsOfs()).toEqual([first]);
      stack.demo.setFaults({});
      stack.clock.advance(RETRY_MS);
      stack.scheduler.runDue();
      await stack.app.historyIdle();
      expect(await recordedAsOfs()).toEqual([first, first + BATCH_INTERVAL_MS]);
    } finally {
      await stack.close();
    }
  });
});
