import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import type { Alert, DeliveryLogEntry } from '../../src/shared/alerts-api.js';
import type { AppConfig } from '../../src/server/config.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { openAppStore } from '../helpers/history-store.js';
import { startHistoryStack, type HistoryStack } from '../helpers/history-stack.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

/*
 * Alerts delivered as signed webhooks through the durable outbox, to a real HTTP server on
 * loopback (WEBHOOK_ALLOW_PRIVATE=1 lets the BFF reach it), verified with the standardwebhooks
 * library. Retries survive a restart of the BFF with the same webhook-id.
 */
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const allowPrivate: Partial<AppConfig> = {
  alerts: { webhookAllowPrivate: true, email: null, linkBase: 'https://risk.example.com' },
};

let store: HistoryStore;
// One receiver per test: lists of earlier tests stay in the store (and keep their own URLs).
let receiver: WebhookReceiver;
beforeAll(async () => {
  store = await openAppStore();
}, 60_000);
afterAll(async () => {
  await store?.close();
});
beforeEach(async () => {
  receiver = await startWebhookReceiver();
});
afterEach(async () => {
  await receiver?.close();
});

async function createList(
  stack: HistoryStack,
  name: string,
  countries: string[],
  extra: object = {},
) {
  const res = await stack.app.inject({
    method: 'POST',
    url: '/api/watchlists',
    payload: { name, countries, webhook_url: receiver.url, ...extra },
  });
  expect(res.statusCode).toBe(201);
  return res.json() as { watchlist: { id: string }; webhook_secret: string };
}

async function log(stack: HistoryStack, id: string): Promise<DeliveryLogEntry[]> {
  const res = await stack.app.inject({ url: `/api/watchlists/${id}/deliveries` });
  expect(res.statusCode).toBe(200);
  return res.json().deliveries;
}

/** Moves the clock on and lets every job that is due run to the end. */
async function advance(stack: HistoryStack, ms: number): Promise<void> {
  stack.clock.advance(ms);
  stack.scheduler.runDue();
  await stack.bff.historyIdle();
  await stack.bff.alertsIdle();
}

describe('alerts as signed webhooks', () => {
  it('one webhook per alert of a new batch, each verified by the library', async () => {
    const stack = await startHistoryStack(store, {
      start: Date.UTC(2026, 4, 1, 8),
      config: allowPrivate,
    });
    try {
      const [first] = await store.latestBatches(1);
      const countries = (await store.countryRows(first!.id))
        .map((r) => r.iso)
        .sort()
        .slice(0, 30);
      const { watchlist, webhook_secret } = await createList(stack, 'Moves', countries, {
        rules: [{ kind: 'active_change', min_abs_delta: 0.1 }],
      });
      const before = receiver.received.length;
      await stack.nextBatch();
      await stack.bff.alertsIdle();
      const alerts: Alert[] = (
        await stack.app.inject({ url: `/api/alerts?watchlist=${watchlist.id}&limit=200` })
      ).json().alerts;
      expect(alerts.length).toBeGreaterThan(0);
      const got = (await receiver.waitFor(before + alerts.length)).slice(before);
      expect(got).toHaveLength(alerts.length);
      const verifier = new Webhook(webhook_secret);
      const payloads = got.map((r) =>
        verifier.verify(r.body, r.headers as Record<string, string>),
      ) as Array<{
        type: string;
        data: {
          alert: { id: string; link: string; message: string };
          country: { iso: string; before: unknown; after: unknown };
          batch: { as_of: string; previous_as_of: string; id: string };
        };
      }>;
      expect(new Set(payloads.map((p) => p.data.alert.id))).toEqual(
        new Set(alerts.map((a) => a.id)),
      );
      const sample = payloads[0]!;
      expect(sample.type).toBe('alert.created');
      expect(sample.data.alert.link).toBe(
        `https://risk.example.com/country/${sample.data.country.iso}`,
      );
      expect(sample.data.country.before).not.toBeNull();
      expect(sample.data.batch.previous_as_of < sample.data.batch.as_of).toBe(true);
      // The batch cited by its id: the one /api/batches lists for that time.
      const [cited] = (await stack.app.inject('/api/batches?limit=1')).json().batches;
      expect(sample.data.batch).toMatchObject({ as_of: cited.as_of, id: cited.id });
      const ids = got.map((r) => r.headers['webhook-id']);
      expect(new Set(ids).size).toBe(ids.length);
      expect(
        (await log(stack, watchlist.id)).every((e) => e.state === 'delivered' && e.status === 200),
      ).toBe(true);
    } finally {
      await stack.close();
    }
  }, 60_000);

  it('a Slack-format endpoint gets {text, blocks}', async () => {
    const stack = await startHistoryStack(store, {
      start: Date.UTC(2026, 4, 3, 8),
      config: allowPrivate,
    });
    try {
      const { watchlist, webhook_secret } = await createList(stack, 'Slack', ['MLI'], {
        webhook_format: 'slack',
      });
      const before = receiver.received.length;
      const test = await stack.app.inject({
        method: 'POST',
        url: `/api/watchlists/${watchlist.id}/test`,
      });
      expect(test.statusCode).toBe(202);
      await stack.bff.alertsIdle();
      const [got] = (await receiver.waitFor(before + 1)).slice(before);
      const body = new Webhook(webhook_secret).verify(
        got!.body,
        got!.headers as Record<string, string>,
      );
      expect(body).toEqual({
        text: expect.stringContaining('Test message from the Global Risk Dashboard'),
        blocks: expect.arrayContaining([expect.objectContaining({ type: 'section' })]),
      });
    } finally {
      await stack.close();
    }
  }, 60_000);
});

describe('the durable outbox', () => {
  it('retries a failing receiver after a restart, honouring Retry-After, with the same id', async () => {
    const start = Date.UTC(2026, 4, 5, 8);
    let stack = await startHistoryStack(store, { start, config: allowPrivate });
    const { watchlist, webhook_secret } = await createList(stack, 'Retry', ['NER']);
    const before = receiver.received.length;
    receiver.answers.push({ status: 503, headers: { 'retry-after': '600' } });
    const messageId = (
      await stack.app.inject({ method: 'POST', url: `/api/watchlists/${watchlist.id}/test` })
    ).json().message_id;
    await stack.bff.alertsIdle();
    expect(await log(stack, watchlist.id)).toMatchObject([
      { message_id: messageId, state: 'pending', status: 503, attempt: 1 },
    ]);

    // Before Retry-After has passed nothing is sent, even when the worker wakes.
    await advance(stack, 5 * 60_000);
    expect(receiver.received.length).toBe(before + 1);

    // The BFF restarts; the delivery is in the store, and goes out once due.
    await stack.app.close();
    await stack.close();
    stack = await startHistoryStack(store, { start: start + 11 * 60_000, config: allowPrivate });
    try {
      await stack.bff.alertsIdle();
      const got = (await receiver.waitFor(before + 2)).slice(before);
      expect(got.map((r) => r.headers['webhook-id'])).toEqual([messageId, messageId]);
      expect(
        new Webhook(webhook_secret).verify(got[1]!.body, got[1]!.headers as Record<string, string>),
      ).toMatchObject({ type: 'test' });
      const entries = await log(stack, watchlist.id);
      expect(entries.map((e) => [e.attempt, e.status, e.state])).toEqual([
        [2, 200, 'delivered'],
        [1, 503, 'delivered'],
      ]);
    } finally {
      await stack.close();
    }
  }, 60_000);

  it('does not retry other 4xx answers', async () => {
    const stack = await startHistoryStack(store, {
      start: Date.UTC(2026, 4, 7, 8),
      config: allowPrivate,
    });
    try {
      const { watchlist } = await createList(stack, 'Gone', ['TCD']);
      const before = receiver.received.length;
      receiver.answers.push({ status: 410 });
      await stack.app.inject({ method: 'POST', url: `/api/watchlists/${watchlist.id}/test` });
      await stack.bff.alertsIdle();
      await advance(stack, 6 * HOUR);
      expect(receiver.received.length).toBe(before + 1);
      expect(await log(stack, watchlist.id)).toMatchObject([
        { attempt: 1, status: 410, state: 'failed' },
      ]);
    } finally {
      await stack.close();
    }
  }, 60_000);

  it('stops retrying after 24 hours, and pauses an endpoint failing for 3 days', async () => {
    const stack = await startHistoryStack(store, {
      start: Date.UTC(2026, 4, 9, 8),
      config: allowPrivate,
    });
    try {
      const { watchlist } = await createList(stack, 'Broken', ['SDN']);
      const send = () =>
        stack.app.inject({ method: 'POST', url: `/api/watchlists/${watchlist.id}/test` });
      for (let i = 0; i < 200; i += 1) receiver.answers.push({ status: 500 });
      await send();
      await stack.bff.alertsIdle();
      for (let step = 0; step < 13; step += 1) await advance(stack, 2 * HOUR);
      const firstMessage = (await log(stack, watchlist.id)).filter((e) => e.attempt === 1).at(-1)!;
      expect(firstMessage.state).toBe('failed');
      const lastAttempt = (await log(stack, watchlist.id))[0]!;
      expect(Date.parse(lastAttempt.at) - Date.UTC(2026, 4, 9, 8)).toBeLessThanOrEqual(DAY);

      const paused = async () =>
        (await stack.app.inject({ url: `/api/watchlists/${watchlist.id}` })).json().watchlist
          .webhook.paused_at;
      expect(await paused()).toBeNull();
      await advance(stack, DAY);
      await send();
      await stack.bff.alertsIdle();
      expect(await paused()).toBeNull();
      await advance(stack, DAY);
      await send();
      await stack.bff.alertsIdle();
      expect(await paused()).not.toBeNull();
      const view = (await stack.app.inject({ url: `/api/watchlists/${watchlist.id}` })).json()
        .watchlist;
      expect(view.webhook.paused_reason).toMatch(/Save the watchlist to resume/);

      // While paused nothing is sent; saving the list resumes it.
      const count = receiver.received.length;
      await send();
      await stack.bff.alertsIdle();
      expect(receiver.received.length).toBe(count);
      receiver.answers.length = 0;
      const saved = await stack.app.inject({
        method: 'PUT',
        url: `/api/watchlists/${watchlist.id}`,
        headers: { 'if-match': `"${view.version}"` },
        payload: { name: 'Broken', countries: ['SDN'], webhook_url: receiver.url },
      });
      expect(saved.json().watchlist.webhook.paused_at).toBeNull();
      await advance(stack, 60_000);
      expect(receiver.received.length).toBeGreaterThan(count);
    } finally {
      receiver.answers.length = 0;
      await stack.close();
    }
  }, 120_000);
});
