import { describe, expect, it } from 'vitest';
import { DEFAULT_FRESHNESS } from '../../src/shared/freshness.js';
import { openAppStore } from '../helpers/history-store.js';
import { startHistoryStack } from '../helpers/history-stack.js';

/*
 * The batch watch (jobs/batch-recorder.ts) against a demo upstream over loopback, counting the
 * upstream's requests: when it looks after a look that saw the batch, what it asks for when the
 * store already holds the batch, and that recording applies retention. Each case pins a line a
 * one-line change broke while history-recording and batch-watch went on passing.
 */
const DAY = 86_400_000;
const START = Date.UTC(2026, 1, 1) + 1000;

describe('the batch watch, by its requests', () => {
  it('after a look that saw the batch, looks again at the freshness interval, not sooner and not at the next batch only', async () => {
    const store = await openAppStore();
    // 45 s: between the 30 s retry and the next batch (10 min on the demo's clock).
    const stack = await startHistoryStack(store, {
      start: START,
      config: { data: { freshness: { ...DEFAULT_FRESHNESS, freshMs: 45_000 } } },
    });
    try {
      const look = async (ms: number): Promise<number> => {
        const before = stack.demo.requestCount();
        stack.clock.advance(ms);
        stack.scheduler.runDue();
        await stack.bff.historyIdle();
        return stack.demo.requestCount() - before;
      };
      expect(await look(30_000)).toBe(0);
      // The probe is stale at 45 s: the watch's look refreshes it (one request).
      expect(await look(15_000)).toBe(1);
    } finally {
      await stack.close();
      await store.close();
    }
  }, 60_000);

  it('a BFF started on a store that holds the batch asks only for the probe, not the export', async () => {
    const store = await openAppStore();
    try {
      await (await startHistoryStack(store, { start: START })).close();
      const again = await startHistoryStack(store, { start: START });
      const requests = again.demo.requestCount();
      await again.close();
      expect(requests).toBe(1);
    } finally {
      await store.close();
    }
  }, 60_000);

  it('recording a batch applies retention to what is older', async () => {
    const store = await openAppStore(1);
    try {
      // A BFF that ran three days ago, then one now: recording today's batch removes the old one.
      await (await startHistoryStack(store, { start: START - 3 * DAY })).close();
      const all = { from: null, to: null };
      const old = (await store.batches(all)).filter((b) => b.countryCount > 0);
      expect(old).toHaveLength(1);
      await (await startHistoryStack(store, { start: START })).close();
      const kept = (await store.batches(all)).filter((b) => b.countryCount > 0);
      expect(kept.map((b) => b.asOf.getTime() >= START - DAY)).toEqual([true]);
    } finally {
      await store.close();
    }
  }, 60_000);
});
