import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pastBatches } from '../../src/demo-upstream/history-seed.js';
import type { AlertEvaluator } from '../../src/server/jobs/alert-evaluator.js';
import type { Found } from '../../src/server/jobs/batch-sources.js';
import type { OutboxWorker } from '../../src/server/jobs/outbox-worker.js';
import { BatchPipeline, type BatchWatch } from '../../src/server/jobs/pipeline.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { openAppStore } from '../helpers/history-store.js';

/*
 * The pipeline's own wiring (jobs/pipeline.ts), with jobs that count what they are asked to do:
 * which term's job a stop clears, who is told of a queued delivery, when leftovers are evaluated,
 * and that a recorded batch (and the feed's points) is stored as real, not demo, data. Each case
 * pins a line that batch-pipeline.test.ts (the steps against real jobs) let change.
 */
const start = Date.UTC(2026, 3, 1, 12, 0, 0);

function countingEvaluator() {
  const counts = { passes: 0, idles: 0 };
  const evaluator = {
    evaluatePending: () => {
      counts.passes += 1;
      return Promise.resolve(0);
    },
    idle: () => {
      counts.idles += 1;
      return Promise.resolve();
    },
  } as unknown as AlertEvaluator;
  return { counts, evaluator };
}

function countingOutbox() {
  const counts = { kicks: 0, starts: 0, stops: 0, idles: 0 };
  const outbox = {
    start: () => void (counts.starts += 1),
    stop: async () => void (counts.stops += 1),
    kick: () => void (counts.kicks += 1),
    idle: async () => void (counts.idles += 1),
  } as unknown as OutboxWorker;
  return { counts, outbox };
}

function countingWatch() {
  const counts = { checks: 0, idles: 0 };
  const watch: BatchWatch = {
    start() {},
    checkNow: () => void (counts.checks += 1),
    stop: async () => {},
    idle: async () => void (counts.idles += 1),
  };
  return { counts, watch };
}

describe('the batch pipeline’s wiring', () => {
  const newPipeline = (leading = true) => {
    const told = { elsewhere: 0 };
    const { counts, evaluator } = countingEvaluator();
    const pipeline = new BatchPipeline({
      store: null as unknown as HistoryStore,
      evaluator,
      isLeader: () => leading,
      queuedElsewhere: () => void (told.elsewhere += 1),
    });
    return { pipeline, told, evaluations: counts };
  };

  it('queued: kicks this term’s outbox while it runs, else tells the leader; sent: only kicks', async () => {
    const { pipeline, told } = newPipeline();
    pipeline.send();
    pipeline.queued();
    expect(told.elsewhere).toBe(1);
    const { counts, outbox } = countingOutbox();
    const stop = pipeline.sendDuring(outbox);
    pipeline.queued();
    expect([counts.kicks, told.elsewhere]).toEqual([1, 1]);
    pipeline.send();
    expect(counts.kicks).toBe(2);
    await stop();
    pipeline.queued();
    pipeline.send();
    expect([counts.kicks, told.elsewhere]).toEqual([2, 2]);
  });

  it('a term’s stop clears only its own job, never the next term’s', async () => {
    const { pipeline } = newPipeline();
    const [a, b] = [countingWatch(), countingWatch()];
    const stopA = pipeline.watchDuring(a.watch);
    pipeline.watchDuring(b.watch);
    await stopA();
    pipeline.seen();
    expect([a.counts.checks, b.counts.checks]).toEqual([0, 1]);
    await pipeline.watchIdle();
    expect(b.counts.idles).toBe(1);

    const [first, second] = [countingOutbox(), countingOutbox()];
    const stopFirst = pipeline.sendDuring(first.outbox);
    pipeline.sendDuring(second.outbox);
    await stopFirst();
    pipeline.queued();
    expect([first.counts.kicks, second.counts.kicks]).toEqual([0, 1]);
    await pipeline.deliveryIdle();
    expect(second.counts.idles).toBe(1);
  });

  it('with no job running, waiting and telling do nothing (and do not throw)', async () => {
    const { pipeline, evaluations } = newPipeline();
    await pipeline.watchIdle();
    await pipeline.deliveryIdle();
    pipeline.seen();
    expect(evaluations).toEqual({ passes: 0, idles: 1 });
  });

  it('leftovers: evaluated once the port is open, at once when leadership comes later, never by a follower', async () => {
    const before = newPipeline();
    before.pipeline.sendDuring(countingOutbox().outbox);
    expect(before.evaluations.passes).toBe(0);
    before.pipeline.listening();
    expect(before.evaluations.passes).toBe(1);

    const after = newPipeline();
    after.pipeline.listening();
    expect(after.evaluations.passes).toBe(0);
    after.pipeline.sendDuring(countingOutbox().outbox);
    expect(after.evaluations.passes).toBe(1);

    let leading = true;
    const { counts, evaluator } = countingEvaluator();
    const lost = new BatchPipeline({
      store: null as unknown as HistoryStore,
      evaluator,
      isLeader: () => leading,
    });
    lost.sendDuring(countingOutbox().outbox);
    leading = false;
    lost.listening();
    expect(counts.passes).toBe(0);
  });
});

describe('recorded through the pipeline', () => {
  let store: HistoryStore;
  beforeAll(async () => {
    store = await openAppStore();
  }, 60_000);
  afterAll(async () => {
    await store?.close();
  });

  it('stores the batch and the feed’s earlier global points as real data, not demo', async () => {
    const [older, batch] = [...pastBatches(start, 2)];
    const found: Found = {
      asOf: Date.parse(batch!.asOf),
      methodologyVersion: batch!.methodologyVersion,
      global: batch!.global,
      source: 'export_json',
      countries: batch!.countries,
    };
    const point: Found = {
      asOf: Date.parse(older!.asOf),
      methodologyVersion: older!.methodologyVersion,
      global: older!.global,
      source: 'feed_history',
      countries: [],
    };
    const pipeline = new BatchPipeline({
      store,
      evaluator: countingEvaluator().evaluator,
      isLeader: () => true,
    });
    expect(await pipeline.record(found, [point])).toBe(true);
    const rows = await store.batches({ from: null, to: null });
    expect(rows.map((r) => [r.asOf.getTime(), r.source, r.demo])).toEqual([
      [point.asOf, 'feed_history', false],
      [found.asOf, 'export_json', false],
    ]);
    expect((await store.coverage()).demo_seeded).toBe(false);
  });
});
