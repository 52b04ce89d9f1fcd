import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alerts, deliveries } from '../../src/server/store/alerts-schema.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { newWebhookSecret } from '../../src/server/services/alerts/watchlists.js';
import { batchRecord, countryRow, HOUR } from '../fixtures/history.js';
import { openAppStore } from '../helpers/history-store.js';
import { insertList, quietEvaluator } from '../helpers/synthetic-batches.js';

/*
 * Alerts of a batch more than 48 hours old (a backlog after downtime, the demo's seeded history)
 * go to the inbox only; at 48 hours exactly they are still sent, by webhook and by e-mail.
 */
const CUT_OFF = 48 * HOUR;
let store: HistoryStore;
beforeAll(async () => {
  store = await openAppStore();
}, 60_000);
afterAll(async () => {
  await store?.close();
});

describe('the 48-hour delivery cut-off', () => {
  it('queues a batch 48 h old, and not one a millisecond older', async () => {
    const listId = await insertList(store, {
      name: 'Cut-off',
      countries: ['AAA'],
      rules: [{ kind: 'active_change', min_abs_delta: 0.1 }],
      webhookUrl: 'https://hooks.example/cut-off',
      webhookSecret: newWebhookSecret(),
      email: 'desk@example.com',
    });
    let now = 0;
    const evaluator = quietEvaluator(store, () => now, { emailEnabled: true });
    const t0 = Date.UTC(2026, 2, 1, 8);
    const queued = async () =>
      (
        await store.db
          .select({ channel: deliveries.channel })
          .from(deliveries)
          .where(eq(deliveries.watchlistId, listId))
      )
        .map((d) => d.channel)
        .sort();
    const raised = async () =>
      (await store.db.select().from(alerts).where(eq(alerts.watchlistId, listId))).length;

    await store.recordBatch(batchRecord(t0, [countryRow('AAA', 50)]));
    await store.recordBatch(batchRecord(t0 + HOUR, [countryRow('AAA', 60)]));
    now = t0 + HOUR + CUT_OFF + 1;
    expect(await evaluator.evaluatePending()).toBe(1);
    expect(await raised()).toBe(1);
    expect(await queued()).toEqual([]);

    await store.recordBatch(batchRecord(t0 + 2 * HOUR, [countryRow('AAA', 70)]));
    now = t0 + 2 * HOUR + CUT_OFF;
    expect(await evaluator.evaluatePending()).toBe(1);
    expect(await raised()).toBe(2);
    expect(await queued()).toEqual(['email', 'webhook']);
  });
});
