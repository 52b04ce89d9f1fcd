import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import type { Alert, DeliveryLogEntry } from '../../src/shared/alerts-api.js';
import type { AppConfig } from '../../src/server/config.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { openAppStore } from '../helpers/history-store.js';
import { startHistoryStack, type HistoryStack } from '../helpers/history-stack.js';
import { waitUntil } from '../helpers/replica-cluster.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

/*
 * Each endpoint delivers on its own: a real receiver that never answers, on one list, delays
 * only that list. The others' alerts arrive at most 5 s later than they do with no hanging
 * receiver at all (measured in this test: the same ten lists, one batch before), and the hanging
 * delivery is logged as a timeout and tried again.
 */
const allowPrivate: Partial<AppConfig> = {
  alerts: { webhookAllowPrivate: true, email: null, linkBase: null },
};

let store: HistoryStore;
let healthy: WebhookReceiver;
let hanging: WebhookReceiver;
beforeAll(async () => {
  store = await openAppStore();
  healthy = await startWebhookReceiver();
  hanging = await startWebhookReceiver();
  // Status 0: the receiver reads the request and never answers.
  for (let i = 0; i < 50; i += 1) hanging.answers.push({ status: 0 });
}, 60_000);
afterAll(async () => {
  await hanging?.close();
  await healthy?.close();
  await store?.close();
});

async function createList(stack: HistoryStack, payload: object) {
  const res = await stack.app.inject({ method: 'POST', url: '/api/watchlists', payload });
  expect(res.statusCode).toBe(201);
  return res.json() as { watchlist: { id: string }; webhook_secret: string };
}

describe('a receiver that never answers', () => {
  it('delays only its own list; it is logged as a timeout and tried again', async () => {
    const stack = await startHistoryStack(store, {
      start: Date.UTC(2026, 4, 11, 8),
      config: allowPrivate,
    });
    try {
      const [first] = await store.latestBatches(1);
      const countries = (await store.countryRows(first!.id)).map((r) => r.iso).sort();
      const lists: Array<{ id: string; verifier: Webhook }> = [];
      for (let i = 0; i < 10; i += 1) {
        const created = await createList(stack, {
          name: `Healthy ${i}`,
          countries: countries.slice(3 * i, 3 * i + 3),
          rules: [{ kind: 'active_change', min_abs_delta: 0.1 }],
          webhook_url: healthy.url,
        });
        lists.push({ id: created.watchlist.id, verifier: new Webhook(created.webhook_secret) });
      }
      /** Alert ids that reached the healthy receiver, verified with their list's secret. */
      const arrived = (): Set<string> => {
        const ids = new Set<string>();
        for (const got of healthy.received) {
          const headers = got.headers as Record<string, string>;
          for (const list of lists) {
            try {
              const payload = list.verifier.verify(got.body, headers) as {
                data: { alert: { id: string } };
              };
              ids.add(payload.data.alert.id);
            } catch {
              // Signed for another list.
            }
          }
        }
        return ids;
      };
      const alertsOf = async (asOf: string): Promise<Alert[]> => {
        const all: Alert[] = [];
        for (const list of lists) {
          const res = await stack.app.inject({ url: `/api/alerts?watchlist=${list.id}&limit=200` });
          all.push(...(res.json().alerts as Alert[]).filter((a) => a.batch_as_of === asOf));
        }
        return all;
      };
      /** The next batch; resolves once each of its alerts on the ten lists has arrived. */
      const nextBatchArrives = async (timeoutMs: number): Promise<number> => {
        const started = performance.now();
        await stack.nextBatch();
        const [batch] = await store.latestBatches(1);
        const asOf = batch!.asOf.toISOString();
        await waitUntil(
          `every alert of the batch of ${asOf} at the healthy receiver`,
          async () => {
            const alerts = await alertsOf(asOf);
            const got = arrived();
            return alerts.length > 0 && alerts.every((a) => got.has(a.id));
          },
          timeoutMs,
        );
        return performance.now() - started;
      };

      // Without a hanging receiver: how long the ten lists' alerts take here and now.
      const unhindered = await nextBatchArrives(60_000);

      const stuck = await createList(stack, {
        name: 'Hanging',
        countries: countries.slice(40, 41),
        // Never fires: this list only gets the test message below.
        rules: [{ kind: 'active_change', min_abs_delta: 100 }],
        webhook_url: hanging.url,
      });
      const sent = await stack.app.inject({
        method: 'POST',
        url: `/api/watchlists/${stuck.watchlist.id}/test`,
      });
      expect(sent.statusCode).toBe(202);
      const messageId: string = sent.json().message_id;
      await hanging.waitFor(1);

      // The hanging request is in flight; the next batch reaches the other ten lists regardless.
      await nextBatchArrives(unhindered + 5_000);

      // The hanging delivery times out (15 s), is logged as such and is sent again.
      const logOf = async (): Promise<DeliveryLogEntry[]> =>
        (await stack.app.inject({ url: `/api/watchlists/${stuck.watchlist.id}/deliveries` })).json()
          .deliveries;
      await waitUntil(
        'the hanging delivery to be logged',
        async () => (await logOf()).some((e) => e.message_id === messageId),
        30_000,
      );
      expect(await logOf()).toMatchObject([
        {
          message_id: messageId,
          attempt: 1,
          status: null,
          state: 'pending',
          error: expect.stringMatching(/no complete answer within/),
        },
      ]);
      const again = await hanging.waitFor(2);
      expect(again.map((r) => r.headers['webhook-id'])).toEqual([messageId, messageId]);
    } finally {
      // Ends the second attempt (the connection closes) so the BFF stops without waiting.
      await hanging.close();
      await stack.close();
    }
  }, 120_000);
});
