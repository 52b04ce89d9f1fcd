import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectAlerts } from '../../src/server/store/alerts.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { batchRecord, countryRow, event, HOUR } from '../fixtures/history.js';
import { openAppStore } from '../helpers/history-store.js';
import { insertList, quietEvaluator } from '../helpers/synthetic-batches.js';

/*
 * A breaking-event rule reads the events of its batch's window only: after the previous batch,
 * up to and including this one. An event already reported with an earlier batch is never
 * reported again; the first batch of all reads everything up to it.
 */
let store: HistoryStore;
beforeAll(async () => {
  store = await openAppStore();
}, 60_000);
afterAll(async () => {
  await store?.close();
});

describe('breaking events per batch', () => {
  it('come from after the previous batch up to this one, each reported once', async () => {
    const listId = await insertList(store, {
      name: 'Breaking',
      countries: ['AAA'],
      // Beside a rule of another kind (that never fires here): the list still reads events.
      rules: [
        { kind: 'risk_threshold', threshold: 90, direction: 'up' },
        { kind: 'breaking_event' },
      ],
    });
    const t0 = Date.UTC(2026, 2, 1, 8);
    let now = t0;
    const evaluator = quietEvaluator(store, () => now);
    const breaking = (at: number, headline: string) =>
      store.archiveEvents('AAA', [event(at, headline, { breaking: true })], new Date(at));
    const alerts = () =>
      selectAlerts(store.db, {
        watchlistIds: [listId],
        unreadOnly: false,
        iso: null,
        before: null,
        limit: 100,
      });
    /** Each batch's breaking-event message, oldest batch first. */
    const messages = async () =>
      (await alerts())
        .map((a) => [a.batchAsOf.getTime() - t0, a.message] as const)
        .sort((a, b) => a[0] - b[0]);

    // Before the first batch, and exactly at it: both belong to the first batch.
    await breaking(t0 - 5 * HOUR, 'Old unrest');
    await breaking(t0, 'Unrest at the first batch');
    await store.recordBatch(batchRecord(t0, [countryRow('AAA', 50)]));
    // After the first batch, and exactly at the second: the second batch's, and only those.
    await breaking(t0 + HOUR / 2, 'Unrest after the first batch');
    await breaking(t0 + HOUR, 'Unrest at the second batch');
    await store.recordBatch(batchRecord(t0 + HOUR, [countryRow('AAA', 50)]));
    // Nothing new before the third batch: it raises nothing.
    await store.recordBatch(batchRecord(t0 + 2 * HOUR, [countryRow('AAA', 50)]));
    now = t0 + 2 * HOUR;
    await evaluator.evaluatePending();

    expect(await messages()).toEqual([
      [0, 'Breaking event: Unrest at the first batch (news.example) and 1 more'],
      [HOUR, 'Breaking event: Unrest at the second batch (news.example) and 1 more'],
    ]);
    // Each alert names its country as the batch does, not by its code.
    const countries = (await alerts()).map((a) => [a.iso, a.country]);
    expect(countries).toEqual([
      ['AAA', 'Country AAA'],
      ['AAA', 'Country AAA'],
    ]);
  });
});
