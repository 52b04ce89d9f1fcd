import { sql } from 'drizzle-orm';
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

const recordedAsOfs = async (start = START): Promise<number[]> =>
  (await store.batches({ from: new Date(start - DAY), to: new Date(start + DAY) }))
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
      await stack.bff.historyIdle();
      expect(await recordedAsOfs()).toEqual([first, first + BATCH_INTERVAL_MS]);
    } finally {
      await stack.close();
    }
  });

  it('a batch whose writing failed is written at its next look, not taken as recorded', async () => {
    const start = START + 10 * DAY;
    const stack = await startHistoryStack(store, { start });
    try {
      const first = Math.floor(start / BATCH_INTERVAL_MS) * BATCH_INTERVAL_MS;
      expect(await recordedAsOfs(start)).toEqual([first]);
      // The store refuses the next batch's row (a stand-in for any failed write: a PostgreSQL
      // that goes away between the watch's look and its write, a full disk).
      await store.db.execute(
        sql.raw(`create function refuse_batch() returns trigger language plpgsql as $$
          begin raise exception 'batch refused for the test'; end $$`),
      );
      await store.db.execute(
        sql.raw(`create trigger refuse_batch before insert on batches
          for each row execute function refuse_batch()`),
      );
      try {
        await stack.nextBatch();
        expect(await recordedAsOfs(start)).toEqual([first]);
      } finally {
        await store.db.execute(sql.raw('drop trigger refuse_batch on batches'));
        await store.db.execute(sql.raw('drop function refuse_batch()'));
      }
      stack.clock.advance(RETRY_MS);
      stack.scheduler.runDue();
      await stack.bff.historyIdle();
      expect(await recordedAsOfs(start)).toEqual([first, first + BATCH_INTERVAL_MS]);
    } finally {
      await stack.close();
    }
  });
});
