import { count, eq, sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pastBatches } from '../../src/demo-upstream/history-seed.js';
import { TEAM_WATCHLISTS_MAX } from '../../src/shared/alerts-api.js';
import { AlertEvaluator } from '../../src/server/jobs/alert-evaluator.js';
import type { Found } from '../../src/server/jobs/batch-sources.js';
import { OutboxWorker } from '../../src/server/jobs/outbox-worker.js';
import { BatchPipeline, type BatchWatch } from '../../src/server/jobs/pipeline.js';
import { newWebhookSecret } from '../../src/server/services/alerts/watchlists.js';
import { alerts, deliveries } from '../../src/server/store/alerts-schema.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { insertWatchlist } from '../../src/server/store/watchlists.js';
import { TestClock } from '../helpers/clock.js';
import { openAppStore } from '../helpers/history-store.js';
import { ManualScheduler } from '../helpers/manual-scheduler.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

/*
 * The batch pipeline (jobs/pipeline.ts) driven one step at a time against a real store and a
 * real webhook receiver: nothing here chains the steps, so each one's effect (and its guarantee)
 * is seen on its own: seen → recorded → evaluated → queued → sent.
 */
const silent = { info() {}, warn() {}, error() {} } as never;
const start = Date.UTC(2026, 3, 1, 12, 0, 0);

describe('the batch pipeline, step by step', () => {
  let store: HistoryStore;
  let receiver: WebhookReceiver;
  const clock = new TestClock(start);
  let leading = false;
  let toldLeader = 0;
  let pipeline: BatchPipeline;
  const [first, second] = [...pastBatches(start, 2)].map((b): Found => ({
    asOf: Date.parse(b.asOf),
    methodologyVersion: b.methodologyVersion,
    global: b.global,
    source: 'export_json',
    countries: b.countries,
  }));
  const watched = first!.countries.map((c) => c.iso).slice(0, 100);

  beforeAll(async () => {
    store = await openAppStore();
    receiver = await startWebhookReceiver();
    await insertWatchlist(
      store.db,
      {
        name: 'Pipeline',
        countries: watched,
        rules: [{ kind: 'active_change', min_abs_delta: 1 }],
        owner: null,
        webhookUrl: receiver.url,
        webhookFormat: 'standard',
        webhookSecret: newWebhookSecret(),
        email: null,
      },
      TEAM_WATCHLISTS_MAX,
    );
    const evaluator = new AlertEvaluator({
      db: store.db,
      now: clock.now,
      logger: silent,
      linkBase: null,
      emailEnabled: false,
      onQueued: () => pipeline.queued(),
    });
    pipeline = new BatchPipeline({
      store,
      evaluator,
      isLeader: () => leading,
      queuedElsewhere: () => (toldLeader += 1),
    });
  }, 60_000);
  afterAll(async () => {
    await receiver?.close();
    await store?.close();
  });

  const alertCount = async (): Promise<number> =>
    (await store.db.select({ n: count() }).from(alerts))[0]!.n;
  const deliveriesIn = async (state: 'pending' | 'delivered'): Promise<number> =>
    (await store.db.select({ n: count() }).from(deliveries).where(eq(deliveries.state, state)))[0]!
      .n;
  const outbox = (fence: SQL | null): OutboxWorker =>
    new OutboxWorker({
      db: store.db,
      now: clock.now,
      logger: silent,
      mailer: null,
      fence,
      scheduler: new ManualScheduler(clock.now),
      send: { allowPrivate: true, connectTimeoutMs: 2_000, totalTimeoutMs: 2_000 },
    });

  it('1. seen: makes the watch of the current term check now, and no watch after its term', async () => {
    let checks = 0;
    const watch: BatchWatch = {
      start() {},
      checkNow: () => void (checks += 1),
      stop: async () => {},
      idle: async () => {},
    };
    pipeline.seen();
    expect(checks).toBe(0);
    const stop = pipeline.watchDuring(watch);
    pipeline.seen();
    expect(checks).toBe(1);
    await stop();
    pipeline.seen();
    expect(checks).toBe(1);
  });

  it('2. recorded: once per batch, and nothing evaluated by recording alone', async () => {
    expect(await pipeline.record(first!)).toBe(true);
    expect(await pipeline.record(first!)).toBe(false);
    expect(await pipeline.record(second!)).toBe(true);
    expect((await store.latestBatches(10)).map((b) => b.asOf.getTime())).toEqual([
      second!.asOf,
      first!.asOf,
    ]);
    expect(await alertCount()).toBe(0);
  });

  it('3. evaluated: leader only, once per batch and alert, to the alerts the rows call for', async () => {
    expect(await pipeline.evaluate()).toBe(0);
    expect(await alertCount()).toBe(0);
    leading = true;
    const before = new Map(first!.countries.map((c) => [c.iso, c.active]));
    const expected = second!.countries.filter((c) => {
      const prior = before.get(c.iso);
      return (
        watched.includes(c.iso) &&
        prior != null &&
        c.active != null &&
        Math.abs(c.active - prior) >= 1
      );
    }).length;
    expect(expected).toBeGreaterThan(0);
    expect(await pipeline.evaluate()).toBe(expected);
    expect(await pipeline.evaluate()).toBe(0);
    expect(await alertCount()).toBe(expected);
  });

  it('4. queued: one delivery per alert, written with it, and the leader told (no outbox here)', async () => {
    expect(await deliveriesIn('pending')).toBe(await alertCount());
    expect(toldLeader).toBe(1);
    expect(receiver.received).toHaveLength(0);
  });

  it('5. sent: fenced by the leader lease, then each delivery once, with its own message id', async () => {
    const pending = await deliveriesIn('pending');
    expect(pending).toBeGreaterThan(0);

    // A term whose lease is gone: every claim is refused, so it sends nothing, and it settles
    // (a lane that claimed nothing does not spin on the store).
    const stale = outbox(sql`false`);
    const stopStale = pipeline.sendDuring(stale);
    await stale.idle();
    await stopStale();
    expect(receiver.received).toHaveLength(0);
    expect(await deliveriesIn('pending')).toBe(pending);

    const current = outbox(null);
    const stop = pipeline.sendDuring(current);
    await receiver.waitFor(pending);
    await current.idle();
    pipeline.send();
    await current.idle();
    await stop();
    expect(receiver.received).toHaveLength(pending);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(pending);
    expect(await deliveriesIn('delivered')).toBe(pending);
    expect(await deliveriesIn('pending')).toBe(0);
  });
});
