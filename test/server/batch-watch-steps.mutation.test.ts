import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { BatchTracker } from '../../src/server/cache/batch.js';
import type { CacheEntry } from '../../src/server/cache/entries.js';
import type { ResourceCache } from '../../src/server/cache/resource-cache.js';
import { BatchRecorder } from '../../src/server/jobs/batch-recorder.js';
import type { Found } from '../../src/server/jobs/batch-sources.js';
import type { ExportIndexes } from '../../src/server/services/upstream-resources/export-index.js';
import type { ResourceSpecs } from '../../src/server/services/upstream-resources/resource-specs.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { DEFAULT_FRESHNESS, nextBatchDue } from '../../src/shared/freshness.js';
import { TestClock } from '../helpers/clock.js';
import { ManualScheduler } from '../helpers/manual-scheduler.js';

/*
 * One step of the batch watch (jobs/batch-recorder.ts) at a time, with a cache, store and logger
 * that record what they are asked: when the watch looks again (30 s after a look that could not
 * see or record the batch, else the freshness interval), what it asks the store, which source it
 * records from, what it logs, and checkNow and stop. Each case pins a line that the whole-app
 * tests (history-recording, batch-watch, batch-recorder.mutation) let change, as the cache's own
 * retries and the pipeline's "seen" cover for the watch there.
 */
const T0 = Date.UTC(2026, 1, 1, 4); // 04:00 UTC: the next documented batch (10:00) is far off.
const BATCH = Date.UTC(2026, 1, 1, 3);
const FRESH_MS = 45_000;
const RETRY_MS = 30_000;

const UKR = { iso: 'UKR', name: 'Ukraine', risk: 80, tier: 'Critical', events: [] };
const hotspots = (rows: unknown[]) => ({
  status: 200,
  data: { hotspots: rows, global: { ggri: 51 }, methodology_version: 'v3' },
});

interface Slot {
  entry: CacheEntry;
  fresh: boolean;
}

function harness() {
  const clock = new TestClock(T0);
  const scheduler = new ManualScheduler(clock.now);
  const slots = new Map<string, Slot>();
  const put = (key: string, asOf: number | null, value: unknown, fresh = true): void => {
    slots.set(key, { entry: { key, fetchedAt: clock.t, asOf, value, size: 1 }, fresh });
  };
  const refreshed: string[] = [];
  const cache = {
    peek: (key: string) => slots.get(key)?.entry,
    // As the real cache's: an entry it does not hold cannot be classified.
    classify: (entry: CacheEntry) => (slots.get(entry.key)?.fresh ? 'fresh' : 'revalidate'),
    refreshInBackground: (spec: { key: string }) => refreshed.push(spec.key),
    idle: () => Promise.resolve(),
  } as unknown as ResourceCache;
  const batch = { state: { latestAsOf: null as number | null } };
  /** The JSON export's index: set to a batch's countries to make the JSON export usable. */
  let jsonIndex: unknown = null;
  const exportIndexes = { of: () => jsonIndex } as unknown as ExportIndexes;
  const calls = { hasBatch: [] as number[], prune: [] as number[], recorded: [] as Found[] };
  const storeState = { holds: new Set<number>(), failing: false, recordAnswers: true };
  const store = {
    hasBatch: (at: Date) => {
      calls.hasBatch.push(at.getTime());
      if (storeState.failing) return Promise.reject(new Error('store unreachable'));
      return Promise.resolve(storeState.holds.has(at.getTime()));
    },
    prune: (now: number) => {
      calls.prune.push(now);
      return Promise.resolve();
    },
  } as unknown as HistoryStore;
  const logs: Array<{ level: string; fields: unknown; message: string }> = [];
  const log =
    (level: string) =>
    (fields: unknown, message: string): void => {
      logs.push({ level, fields, message });
    };
  const logger = {
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
  } as unknown as FastifyBaseLogger;
  const recorder = new BatchRecorder({
    store,
    record: (found) => {
      calls.recorded.push(found);
      return Promise.resolve(storeState.recordAnswers);
    },
    cache,
    specs: {
      export: (format: string) => ({ key: `export:${format}` }),
    } as unknown as ResourceSpecs,
    batch: batch as unknown as BatchTracker,
    freshMs: FRESH_MS,
    nextBatchDue: (at) => nextBatchDue(at, DEFAULT_FRESHNESS),
    now: clock.now,
    scheduler,
    logger,
    exportIndexes,
    probe: () => ({ key: 'probe' }) as never,
  });
  /** Batch `asOf` known, its probe cached, its exports unusable (the hotspot list records it). */
  const batchOnHotspots = (asOf: number): void => {
    batch.state.latestAsOf = asOf;
    put('probe', asOf, hotspots([UKR]));
    put('export:json', asOf, { status: 200, text: '{}' });
    put('export:csv', asOf, { status: 404, text: '' });
  };
  const run = async (): Promise<void> => {
    recorder.start();
    await recorder.idle();
  };
  return {
    clock,
    scheduler,
    put,
    slots,
    refreshed,
    batch,
    setJsonIndex: (index: unknown) => (jsonIndex = index),
    calls,
    storeState,
    logs,
    recorder,
    batchOnHotspots,
    run,
  };
}

describe('one step of the batch watch', () => {
  it('records a new batch once, logs it, applies retention and looks again at the freshness interval', async () => {
    const h = harness();
    h.batchOnHotspots(BATCH);
    await h.run();
    expect(h.calls.recorded.map((found) => [found.asOf, found.source])).toEqual([
      [BATCH, 'hotspots'],
    ]);
    expect(h.logs).toEqual([
      {
        level: 'info',
        fields: { as_of: new Date(BATCH).toISOString(), source: 'hotspots', countries: 1 },
        message: 'batch recorded in the history',
      },
    ]);
    expect(h.calls.prune).toEqual([T0]);
    // The probe was fresh and both exports already of this batch: nothing fetched again.
    expect(h.refreshed).toEqual([]);
    expect(h.scheduler.nextAt()).toBe(T0 + FRESH_MS);
    await h.recorder.stop();
  });

  it('does not say it recorded a batch the store already had', async () => {
    const h = harness();
    h.batchOnHotspots(BATCH);
    h.storeState.recordAnswers = false;
    await h.run();
    expect(h.calls.recorded).toHaveLength(1);
    expect(h.logs).toEqual([]);
    await h.recorder.stop();
  });

  it('asks the store about a batch once: the next look at the same batch asks nothing', async () => {
    const h = harness();
    h.batchOnHotspots(BATCH);
    h.storeState.holds.add(BATCH);
    await h.run();
    h.clock.advance(FRESH_MS);
    expect(h.scheduler.runDue()).toBe(1);
    await h.recorder.idle();
    expect(h.calls.hasBatch).toEqual([BATCH]);
    expect(h.calls.recorded).toEqual([]);
    await h.recorder.stop();
  });

  it('with no batch known, asks the store nothing and looks again within 30 s', async () => {
    const h = harness();
    // An answer without a batch time: the probe is cached and fresh, yet no batch is known.
    h.put('probe', null, hotspots([UKR]));
    await h.run();
    expect(h.calls.hasBatch).toEqual([]);
    expect(h.scheduler.nextAt()).toBe(T0 + RETRY_MS);
    await h.recorder.stop();
  });

  it('when the probe stays stale (its refresh failed), looks again within 30 s', async () => {
    const h = harness();
    h.batchOnHotspots(BATCH);
    h.put('probe', BATCH, hotspots([UKR]), false);
    await h.run();
    expect(h.refreshed).toEqual(['probe']);
    expect(h.calls.recorded).toHaveLength(1);
    expect(h.scheduler.nextAt()).toBe(T0 + RETRY_MS);
    await h.recorder.stop();
  });

  it('records a known batch from the JSON export even when no probe answer is cached', async () => {
    const h = harness();
    h.batchOnHotspots(BATCH);
    h.slots.delete('probe');
    h.setJsonIndex({
      countries: new Map(),
      summaries: [{ iso: 'UKR' }],
      methodologyVersion: 'v3',
      global: null,
    });
    await h.run();
    expect(h.calls.recorded.map((found) => found.source)).toEqual(['export_json']);
    expect(h.logs.filter((line) => line.level === 'error')).toEqual([]);
    expect(h.scheduler.nextAt()).toBe(T0 + RETRY_MS);
    await h.recorder.stop();
  });

  it('fetches an export again when it holds an older batch', async () => {
    const h = harness();
    h.batchOnHotspots(BATCH);
    h.put('export:json', BATCH - 3_600_000, { status: 200, text: '{}' });
    await h.run();
    expect(h.refreshed).toEqual(['export:json']);
    await h.recorder.stop();
  });

  it('with no source for a new batch, warns, records nothing and looks again within 30 s', async () => {
    const h = harness();
    h.batchOnHotspots(BATCH);
    h.put('probe', BATCH, hotspots([]));
    await h.run();
    expect(h.calls.recorded).toEqual([]);
    expect(h.calls.prune).toEqual([]);
    expect(h.logs).toEqual([
      {
        level: 'warn',
        fields: { as_of: new Date(BATCH).toISOString() },
        message: 'new batch not recorded: no source',
      },
    ]);
    expect(h.scheduler.nextAt()).toBe(T0 + RETRY_MS);
    await h.recorder.stop();
  });

  it('a store that fails: logs the watch by name and looks again within 30 s', async () => {
    const h = harness();
    h.batchOnHotspots(BATCH);
    h.storeState.failing = true;
    await h.run();
    expect(h.logs.map((line) => [line.level, line.message])).toEqual([
      ['error', 'batch watch failed; trying again soon'],
    ]);
    expect(h.scheduler.nextAt()).toBe(T0 + RETRY_MS);
    await h.recorder.stop();
  });

  it('checkNow looks at once, not at the scheduled time', async () => {
    const h = harness();
    h.batchOnHotspots(BATCH);
    await h.run();
    h.batchOnHotspots(BATCH + 1_000);
    h.recorder.checkNow();
    await h.recorder.idle();
    expect(h.calls.recorded.map((found) => found.asOf)).toEqual([BATCH, BATCH + 1_000]);
    await h.recorder.stop();
  });

  it('stop cancels the next look', async () => {
    const h = harness();
    h.batchOnHotspots(BATCH);
    await h.run();
    expect(h.scheduler.nextAt()).not.toBeNull();
    await h.recorder.stop();
    expect(h.scheduler.nextAt()).toBeNull();
  });
});
