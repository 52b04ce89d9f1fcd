import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import type { Alert } from '../../src/shared/alerts-api.js';
import type { ConfigOverrides } from '../helpers/test-config.js';
import { SiteAlertEvaluator } from '../../src/server/jobs/site-alert-evaluator.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { selectPreviousBatch } from '../../src/server/store/alerts.js';
import { deliveries } from '../../src/server/store/alerts-schema.js';
import { writeSiteAlerts } from '../../src/server/store/sites-alerts.js';
import { selectChainIds } from '../../src/server/store/batch-chain.js';
import { listDeliveries } from '../../src/server/services/alerts/list-deliveries.js';
import type { WatchlistRow } from '../../src/server/store/watchlists.js';
import { siteAlertEvaluations } from '../../src/server/store/sites-schema.js';
import { openAppStore } from '../helpers/history-store.js';
import { startHistoryStack, type HistoryStack } from '../helpers/history-stack.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

/*
 * The site rule end to end: a demo upstream over HTTP publishes a batch in which a country next
 * to one of our sites moves; the BFF records it, evaluates the rule from the site's stored nearby
 * list and sends a signed webhook naming the site to a real receiver on loopback, once, however
 * often the evaluation runs.
 */
const STORE_QUESTIONS = 4;
const allowPrivate: ConfigOverrides = {
  alerts: { webhookAllowPrivate: true, email: null, linkBase: 'https://risk.example.com' },
  // A small rate of store questions per client, so the exposure answer's guard shows.
  history: {
    storeQuestions: { queriesPerMinute: STORE_QUESTIONS, queriesInFlight: 2, queryQueue: 50 },
  },
};

let store: HistoryStore;
let stack: HistoryStack;
let receiver: WebhookReceiver;
beforeAll(async () => {
  store = await openAppStore();
  receiver = await startWebhookReceiver();
  stack = await startHistoryStack(store, {
    start: Date.UTC(2026, 5, 1, 8),
    config: allowPrivate,
  });
}, 60_000);
afterAll(async () => {
  await stack?.close();
  await receiver?.close();
  await store?.close();
});

const STRASBOURG = {
  ref: 'S-1',
  name: 'Strasbourg office',
  kind: 'office',
  lat: 48.58,
  lng: 7.75,
  people: 60,
};

async function deliveriesOf(listId: string): Promise<number> {
  const rows = await store.db
    .select({ id: deliveries.id })
    .from(deliveries)
    .where(eq(deliveries.watchlistId, Number(listId)));
  return rows.length;
}

const evaluator = () =>
  new SiteAlertEvaluator({
    db: store.db,
    now: stack.clock.now,
    logger: stack.app.log,
    linkBase: null,
    emailEnabled: false,
  });

describe('site alerts end to end', () => {
  let listId = '';
  let secret = '';

  it('"Our sites" takes a webhook like a watchlist (If-Match, the secret shown once)', async () => {
    // The list comes with the first site (issue 33, point 12): one far away, its rule off.
    const first = await stack.app.inject({
      method: 'POST',
      url: '/api/sites',
      payload: {
        ref: 'X-0',
        name: 'Santiago office',
        kind: 'office',
        lat: -33.45,
        lng: -70.66,
        alert_on: false,
      },
    });
    expect(first.statusCode, first.body).toBe(201);
    const target = await stack.app.inject({ url: '/api/sites/alert-delivery' });
    expect(target.statusCode).toBe(200);
    expect(target.json().watchlist).toMatchObject({
      name: 'Our sites',
      countries: [],
      webhook: null,
    });
    const without = await stack.app.inject({
      method: 'PUT',
      url: '/api/sites/alert-delivery',
      payload: { webhook_url: receiver.url },
    });
    expect(without.statusCode).toBe(428);
    const bad = await stack.app.inject({
      method: 'PUT',
      url: '/api/sites/alert-delivery',
      headers: { 'if-match': target.headers.etag as string },
      payload: { webhook_url: receiver.url, email: 'not an address' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/^email: /);
    const set = await stack.app.inject({
      method: 'PUT',
      url: '/api/sites/alert-delivery',
      headers: { 'if-match': target.headers.etag as string },
      payload: { webhook_url: receiver.url },
    });
    expect(set.statusCode).toBe(200);
    expect(set.json().webhook_secret).toMatch(/^whsec_/);
    listId = set.json().watchlist.id;
    secret = set.json().webhook_secret;
    const again = await stack.app.inject({ url: '/api/sites/alert-delivery' });
    expect(again.json().watchlist.webhook.url).toBe(receiver.url);
    expect(again.json()).not.toHaveProperty('webhook_secret');
    // Edited as a watchlist, it says where it is set up instead.
    const asList = await stack.app.inject({
      method: 'PUT',
      url: `/api/watchlists/${listId}`,
      headers: { 'if-match': again.headers.etag as string },
      payload: { name: 'Our sites', countries: ['FRA'] },
    });
    expect(asList.statusCode).toBe(409);
    expect(asList.json().error).toMatch(/PUT \/api\/sites\/alert-delivery/);
  });

  it('a neighbouring country that moves sends one signed webhook naming the site', async () => {
    // The default rule (on, 100 km, 10 points): left out of the import.
    const imported = await stack.app.inject({
      method: 'POST',
      url: '/api/sites/import',
      payload: [STRASBOURG],
    });
    expect(imported.json().created).toHaveLength(1);
    const before = receiver.received.length;
    await stack.nextBatch();
    await stack.bff.alertsIdle();
    const alerts: Alert[] = (
      await stack.app.inject({ url: `/api/alerts?watchlist=${listId}&limit=200` })
    ).json().alerts;
    // Strasbourg is in France; the alert is about a country next to it, named with the site.
    const neighbour = alerts.find((a) => a.iso !== 'FRA');
    expect(neighbour?.message).toMatch(/^Strasbourg office, 60 people: .+, \d+ km away, /);
    const got = (await receiver.waitFor(before + alerts.length)).slice(before);
    expect(got).toHaveLength(alerts.length);
    const payloads = got.map(
      (r) =>
        new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as {
          data: {
            alert: { message: string };
            watchlist: { name: string };
            country: { iso: string };
            batch: { id: string | null };
            sites: unknown;
          };
        },
    );
    const sent = payloads.find((p) => p.data.country.iso === neighbour?.iso);
    expect(sent?.data.alert.message).toBe(neighbour?.message);
    expect(sent?.data.watchlist.name).toBe('Our sites');
    // Besides the sentence, the sites as data: ids, refs, names, people, country and distance.
    const site = imported.json().created[0];
    const km = Number(/, (\d+) km away, /.exec(neighbour!.message)?.[1]);
    expect(sent?.data.sites).toEqual({
      count: 1,
      people: 60,
      listed: [
        {
          id: site.id,
          ref: 'S-1',
          name: 'Strasbourg office',
          people: 60,
          iso: 'FRA',
          distance_km: expect.closeTo(km, -0.5),
        },
      ],
      more: 0,
    });
    // The batch's citable id, as GET /api/batches/:id names it.
    const [latest] = await store.latestBatches(1);
    const chainId = (await selectChainIds(store.db, [latest!.id])).get(latest!.id);
    expect(chainId).toEqual(expect.any(String));
    expect(sent?.data.batch.id).toBe(chainId);
  }, 60_000);

  it('exactly once, however often the evaluation runs (another process, the same batch)', async () => {
    const [latest] = await store.latestBatches(1);
    const batch = { id: latest!.id, asOf: latest!.asOf };
    const sent = receiver.received.length;
    const queued = await deliveriesOf(listId);
    expect(queued).toBeGreaterThan(0);
    expect(await evaluator().evaluatePending()).toBe(0);
    expect(await evaluator().evaluateBatch(batch)).toBe(0);
    await stack.bff.alertsIdle();
    expect(await deliveriesOf(listId)).toBe(queued);
    expect(receiver.received.length).toBe(sent);
  });

  it('once per batch: a second write of the same batch writes nothing', async () => {
    const [latest] = await store.latestBatches(1);
    const previous = await selectPreviousBatch(store.db, latest!.asOf);
    expect(await writeSiteAlerts(store.db, previous!.id, [], () => [])).toBeNull();
  });

  it('once per alert: a batch evaluated again after its mark is lost adds no alert or delivery', async () => {
    const [latest] = await store.latestBatches(1);
    const alertsBefore = (
      await stack.app.inject({ url: `/api/alerts?watchlist=${listId}&limit=200` })
    ).json().alerts.length;
    const queued = await deliveriesOf(listId);
    await store.db.delete(siteAlertEvaluations).where(eq(siteAlertEvaluations.batchId, latest!.id));
    expect(await evaluator().evaluateBatch({ id: latest!.id, asOf: latest!.asOf })).toBe(0);
    const alertsAfter = (
      await stack.app.inject({ url: `/api/alerts?watchlist=${listId}&limit=200` })
    ).json().alerts.length;
    expect(alertsAfter).toBe(alertsBefore);
    expect(await deliveriesOf(listId)).toBe(queued);
  });
});

describe("a site alert's e-mail", () => {
  it('lists the sites under the alert (ref, id, people, country, distance) with the batch id', () => {
    const alert = {
      id: '7',
      iso: 'DEU',
      country: 'Germany',
      message: 'Strasbourg office, 60 people: Germany, 2 km away, Moderate → High',
      link: 'https://risk.example.com/country/DEU',
      batch_as_of: '2026-06-01T08:00:00.000Z',
    } as Alert;
    const list = {
      id: 3,
      name: 'Our sites',
      webhookUrl: null,
      webhookSecret: null,
      email: 'risk@example.com',
    } as unknown as WatchlistRow;
    const sites = {
      count: 2,
      people: 70,
      listed: [
        { id: 11, ref: 'S-1', name: 'Strasbourg office', people: 60, iso: 'FRA', distance_km: 2.4 },
      ],
      more: 1,
    };
    const [mail] = listDeliveries(
      list,
      [alert],
      { previousAsOf: null, chainId: 'b_abc' },
      new Date(),
      true,
      (a) => (a.iso === 'DEU' ? sites : null),
    );
    const body = JSON.parse(mail!.body) as { text: string; html: string };
    expect(body.text).toContain(
      '  * Strasbourg office (ref S-1, site 11), 60 people, FRA, 2 km\n  * and 1 more site',
    );
    expect(body.text).toContain('batch id b_abc');
    expect(body.html).toContain(
      '<li>Strasbourg office (ref S-1, site 11), 60 people, FRA, 2 km</li>',
    );
  });
});

describe('a batch whose site evaluation fails', () => {
  it('is retried later and never holds up the batches after it', async () => {
    await stack.nextBatch();
    await stack.bff.alertsIdle();
    const [newer, older] = await store.latestBatches(2);
    await store.db
      .delete(siteAlertEvaluations)
      .where(inArray(siteAlertEvaluations.batchId, [newer!.id, older!.id]));
    // The older batch's first read fails (the second query of the pass), the rest works.
    let selects = 0;
    const failing = new Proxy(store.db, {
      get(target, key) {
        const value: unknown = Reflect.get(target, key);
        if (key === 'select' && ++selects === 2) {
          return () => {
            throw new Error('the store went away for a moment');
          };
        }
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const job = new SiteAlertEvaluator({
      db: failing,
      now: stack.clock.now,
      logger: stack.app.log,
      linkBase: null,
      emailEnabled: false,
    });
    await job.evaluatePending();
    const marked = async () =>
      (await store.db.select().from(siteAlertEvaluations)).map((r) => r.batchId);
    expect(await marked()).toContain(newer!.id);
    expect(await marked()).not.toContain(older!.id);
    await job.evaluatePending();
    expect(await marked()).toContain(older!.id);
  });
});

describe('/api/exposure is a store question like the history ones', () => {
  it("past the client's store questions a minute, a 429 in words with Retry-After", async () => {
    for (let i = 0; i < STORE_QUESTIONS; i++) {
      const res = await stack.app.inject({ url: '/api/exposure' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
    }
    const refused = await stack.app.inject({ url: '/api/exposure' });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.json().error).toMatch(/^Too many history or event-archive questions/);
    // Bad input is still a 400 first, without spending the budget.
    const bad = await stack.app.inject({ url: '/api/exposure?weight=gold' });
    expect(bad.statusCode).toBe(400);
  });
});
