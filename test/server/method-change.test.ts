import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import type { Alert } from '../../src/shared/alerts-api.js';
import type { BatchListResponse } from '../../src/shared/batches-api.js';
import type { AppConfig } from '../../src/server/config.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { RESCALED_METHODOLOGY_VERSION } from '../../src/demo-upstream/method-change.js';
import { METHODOLOGY_VERSION } from '../../src/demo-upstream/vocabulary.js';
import { openAppStore } from '../helpers/history-store.js';
import {
  startHistoryStack,
  BATCH_INTERVAL_MS,
  type HistoryStack,
} from '../helpers/history-stack.js';
import { waitUntil } from '../helpers/replica-cluster.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

/*
 * Issue 31: the demo upstream changes its method (every score × 0.6, a new methodology_version).
 * Two watchlists with webhooks on a real receiver get one notice each for the batch that changed
 * it and no ordinary alert; the next batch (same method) alerts as usual; /api/batches names the
 * methods; an admin marking the change comparable releases the held rules once, audit-logged.
 */
const allowPrivate: Partial<AppConfig> = {
  alerts: { webhookAllowPrivate: true, email: null, linkBase: null },
};
const RULES = [
  { kind: 'active_change', min_abs_delta: 1 },
  { kind: 'tier_change', direction: 'both' },
  { kind: 'risk_threshold', threshold: 30, direction: 'both' },
];

type Hook = {
  data: { alert: { id: string; kind: string; message: string }; watchlist: { id: string } };
};

let store: HistoryStore;
let receiver: WebhookReceiver;
let stack: HistoryStack;
const lists: Array<{ id: string; verifier: Webhook }> = [];

beforeAll(async () => {
  store = await openAppStore();
  receiver = await startWebhookReceiver();
  stack = await startHistoryStack(store, {
    start: Date.UTC(2026, 4, 20, 8),
    config: allowPrivate,
  });
  const [first] = await store.latestBatches(1);
  // The riskiest countries: × 0.6 moves each of them by many points.
  const countries = (await store.countryRows(first!.id))
    .sort((a, b) => (b.risk ?? 0) - (a.risk ?? 0))
    .map((r) => r.iso);
  for (let i = 0; i < 2; i += 1) {
    const res = await stack.app.inject({
      method: 'POST',
      url: '/api/watchlists',
      payload: {
        name: `Method ${i}`,
        countries: countries.slice(10 * i, 10 * i + 10),
        rules: RULES,
        webhook_url: receiver.url,
      },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json() as { watchlist: { id: string }; webhook_secret: string };
    lists.push({ id: body.watchlist.id, verifier: new Webhook(body.webhook_secret) });
  }
  // A site in the riskiest country, alerting on any move of a point there: the "Our sites" list
  // would get an alert for it in the rescaled batch.
  const site = await stack.app.inject({
    method: 'POST',
    url: '/api/sites',
    payload: {
      ref: 'M-1',
      name: 'Method office',
      kind: 'office',
      lat: 10,
      lng: 10,
      iso: countries[0],
      alert: { on: true, radius_km: 0, min_delta: 1 },
    },
  });
  expect(site.statusCode).toBe(201);
}, 120_000);
afterAll(async () => {
  await stack?.close();
  await receiver?.close();
  await store?.close();
});

/** Every delivery so far, verified with its list's secret: [list id, alert kind]. */
function delivered(): Array<[string, string]> {
  return receiver.received.map((got) => {
    for (const list of lists) {
      try {
        const hook = list.verifier.verify(got.body, got.headers as Record<string, string>) as Hook;
        return [list.id, hook.data.alert.kind];
      } catch {
        // Signed for the other list.
      }
    }
    throw new Error('a delivery signed by neither list');
  });
}

async function alertsOf(listId: string, asOf: string): Promise<Alert[]> {
  const res = await stack.app.inject({ url: `/api/alerts?watchlist=${listId}&limit=200` });
  return (res.json().alerts as Alert[]).filter((a) => a.batch_as_of === asOf);
}

async function newestBatch(): Promise<BatchListResponse['batches'][number]> {
  const res = await stack.app.inject({ url: '/api/batches?limit=2' });
  expect(res.statusCode).toBe(200);
  return (res.json() as BatchListResponse).batches[0]!;
}

/** The next batch, its alerts evaluated and every delivery of it sent. */
async function nextBatchDelivered(): Promise<string> {
  await stack.nextBatch();
  await stack.bff.alertsIdle();
  const asOf = (await newestBatch()).as_of;
  const expected = (await Promise.all(lists.map((l) => alertsOf(l.id, asOf)))).flat().length;
  await waitUntil(
    `the ${expected} deliveries of ${asOf}`,
    async () => {
      const pending = await stack.app.inject({ url: `/api/watchlists/${lists[0]!.id}/deliveries` });
      return pending.statusCode === 200 && receiver.received.length >= sent + expected;
    },
    30_000,
  );
  sent = receiver.received.length;
  return asOf;
}
let sent = 0;

describe('the provider changes its method', () => {
  let changedAt = '';

  it('one notice per list and webhook, no ordinary alert, and /api/batches names the methods', async () => {
    await stack.bff.alertsIdle();
    sent = receiver.received.length;
    const next = (Math.floor(stack.clock.t / BATCH_INTERVAL_MS) + 1) * BATCH_INTERVAL_MS;
    stack.demo.setFaults({ methodChange: { fromMs: next } });
    changedAt = await nextBatchDelivered();

    for (const list of lists) {
      const alerts = await alertsOf(list.id, changedAt);
      expect(alerts.map((a) => a.kind)).toEqual(['method_change']);
      expect(alerts[0]!.message).toContain(
        `changed its method from ${METHODOLOGY_VERSION} to ${RESCALED_METHODOLOGY_VERSION}`,
      );
      expect(alerts[0]!.message).toContain('not comparable');
      expect(alerts[0]!.message).toMatch(
        /10 of the list's 10 countries moved, risk −\d+\.\d on average/,
      );
    }
    expect(delivered().sort()).toEqual(lists.map((l) => [l.id, 'method_change']).sort());
    // "Our sites" too: one notice, no alert per country (its own words: nothing to release).
    const ours = (await stack.app.inject({ url: '/api/sites/alert-delivery' })).json().watchlist;
    const siteAlerts = await alertsOf(ours.id as string, changedAt);
    expect(siteAlerts.map((a) => a.kind)).toEqual(['method_change']);
    expect(siteAlerts[0]!.message).toMatch(
      /^The provider changed its method .* \d+ ordinary alerts? (was|were) held\.$/,
    );

    const newest = await newestBatch();
    expect(newest).toMatchObject({
      as_of: changedAt,
      methodology_version: RESCALED_METHODOLOGY_VERSION,
      method_change: {
        from: METHODOLOGY_VERSION,
        to: RESCALED_METHODOLOGY_VERSION,
        comparable: false,
      },
    });
    const before = (
      await stack.app.inject({ url: '/api/batches?limit=2' })
    ).json() as BatchListResponse;
    expect(before.batches[1]).toMatchObject({
      methodology_version: METHODOLOGY_VERSION,
      method_change: null,
    });
  }, 120_000);

  it('What changed, the history and the spreadsheets name the method change', async () => {
    const changes = (await stack.app.inject({ url: '/api/changes' })).json();
    expect(changes.to_batch.as_of).toBe(changedAt);
    expect(changes.method_changes).toEqual([
      {
        as_of: changedAt,
        from: METHODOLOGY_VERSION,
        to: RESCALED_METHODOLOGY_VERSION,
        comparable: false,
      },
    ]);
    const iso = changes.countries[0].iso as string;
    // "Why it moved" names the method change before the categories.
    const why = (await stack.app.inject({ url: `/api/country/${iso}/explain` })).json();
    expect(why.sentence).toMatch(
      new RegExp(
        `^The provider changed its method from ${METHODOLOGY_VERSION} to ${RESCALED_METHODOLOGY_VERSION}: not comparable\\. Risk `,
      ),
    );
    const history = (await stack.app.inject({ url: `/api/history/country/${iso}` })).json();
    expect(history.method_changes).toMatchObject([{ as_of: changedAt }]);

    const sheet = await stack.app.inject({ url: '/api/spreadsheet/countries' });
    const [header, first] = sheet.body.replace(/^\uFEFF/, '').split('\r\n');
    expect(header!.split(',').slice(-2)).toEqual(['Batch id', 'Methodology version']);
    expect(first!.split(',').at(-1)).toBe(RESCALED_METHODOLOGY_VERSION);
    const country = await stack.app.inject({
      url: `/api/spreadsheet/country/${iso}?as_of=${encodeURIComponent(changedAt)}`,
    });
    // Method, then our notes (none here).
    expect(country.body.split('\r\n')[1]!.split(',').at(-2)).toBe(RESCALED_METHODOLOGY_VERSION);
  });

  it('a real move in the next batch (same method) alerts as usual', async () => {
    const before = receiver.received.length;
    const asOf = await nextBatchDelivered();
    const kinds = (await Promise.all(lists.map((l) => alertsOf(l.id, asOf))))
      .flat()
      .map((a) => a.kind);
    expect(kinds.length).toBeGreaterThan(0);
    expect(kinds).toContain('active_change');
    expect(kinds).not.toContain('method_change');
    expect(receiver.received.length - before).toBe(kinds.length);
  }, 120_000);

  it('an admin marks the change comparable: the held rules fire once, and it is audited', async () => {
    const { id } = (await stack.app.inject({ url: '/api/batches?limit=3' })).json().batches[1] as {
      id: string;
    };
    const listed = (await stack.app.inject({ url: '/api/method-changes' })).json();
    expect(listed.method_changes).toMatchObject([{ batch_id: id, comparable: false }]);

    const bad = await stack.app.inject({
      method: 'PUT',
      url: `/api/method-changes/${id}`,
      payload: { comparable: false },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toContain('comparable');

    const marked = await stack.app.inject({
      method: 'PUT',
      url: `/api/method-changes/${id}`,
      payload: { comparable: true },
    });
    expect(marked.statusCode).toBe(200);
    const released: number = marked.json().released_alerts;
    expect(released).toBeGreaterThan(0);
    expect(marked.json().method_change).toMatchObject({ batch_id: id, comparable: true });
    const kinds = (await Promise.all(lists.map((l) => alertsOf(l.id, changedAt)))).flat();
    expect(kinds.filter((a) => a.kind !== 'method_change')).toHaveLength(released);

    const again = await stack.app.inject({
      method: 'PUT',
      url: `/api/method-changes/${id}`,
      payload: { comparable: true },
    });
    expect(again.json().released_alerts).toBe(0);
    const newest = (await stack.app.inject({ url: '/api/batches?limit=3' })).json().batches[1];
    expect(newest.method_change.comparable).toBe(true);

    const audit = await stack.app.inject({
      url: `/api/audit?action=${encodeURIComponent('method change marked comparable')}`,
    });
    expect(audit.statusCode).toBe(200);
    expect(audit.json().entries).toHaveLength(2);
    expect(audit.json().entries[1]).toMatchObject({
      object: `/api/method-changes/${id}`,
      after: { comparable: true },
    });
  }, 120_000);
});
