import type { FastifyBaseLogger } from 'fastify';
import type { BatchTracker } from '../cache/batch.js';
import type { ResourceCache, ResourceSpec } from '../cache/resource-cache.js';
import type { CacheEntry } from '../cache/entries.js';
import type { ExportIndexes } from '../services/upstream-resources/export-index.js';
import type {
  ExportValue,
  HotspotsValue,
  ResourceSpecs,
} from '../services/upstream-resources/resource-specs.js';
import type { HistoryStore } from '../store/history-store.js';
import {
  feedHistoryPoints,
  fromCsvExport,
  fromHotspots,
  fromJsonExport,
  hotspotsGlobal,
  type Found,
} from './batch-sources.js';
import { jobLoop, type JobLoop } from './job-loop.js';
import type { Scheduler } from './scheduler.js';

const RETRY_MS = 30_000;

export interface BatchRecorderDeps {
  store: HistoryStore;
  /** Writes a found batch (the pipeline's "recorded" step); true when it was new. */
  record: (found: Found, feedPoints: readonly Found[]) => Promise<boolean>;
  cache: ResourceCache;
  specs: ResourceSpecs;
  batch: BatchTracker;
  /** Between batches, look again at least this often (FRESH_SECONDS). */
  freshMs: number;
  /** The next documented batch time after `now` (the data part's schedule). */
  nextBatchDue: (now: number) => number;
  now: () => number;
  scheduler: Scheduler;
  logger: FastifyBaseLogger;
  /** Checks run only while this process leads (the loop skips them otherwise). */
  isLeader?: () => boolean;
  /** The data service's parsed exports: the recorder reads the same parse, never its own. */
  exportIndexes: ExportIndexes;
  /** The probe the cache uses to confirm a batch (the hotspot list). */
  probe: () => ResourceSpec<HotspotsValue>;
}

/**
 * Watches for new batches by itself, page or no page: it wakes at each documented batch time
 * (BATCH_SCHEDULE_UTC) and at least every FRESH_SECONDS between them, lets the cache's probe
 * confirm or discover the batch (no request when a page already confirmed it recently), and
 * records each new `as_of` once: from the JSON export's countries, else the CSV export, else the
 * hotspot list. Everything goes through the response cache as background work, so the quota
 * governor's reserve holds, and an export a page already fetched is not fetched again.
 */
export class BatchRecorder {
  readonly #loop: JobLoop;
  /** The newest `as_of` known to be in the store (a single value: bounded by construction). */
  #recordedAsOf: number | null = null;
  /** False after a check that could not see or record the newest batch (upstream failing). */
  #complete = true;

  constructor(private readonly deps: BatchRecorderDeps) {
    this.#loop = jobLoop(deps, {
      name: 'batch watch',
      run: async () => {
        await this.check();
        return this.#nextAt();
      },
      // The store may be down: look again within RETRY_MS, not only at the next interval.
      retryAt: () => {
        this.#complete = false;
        return this.#nextAt();
      },
    });
  }

  /** Checks at once, then on the schedule. */
  start(): void {
    this.#loop.start();
  }

  /** Checks now instead of at the next scheduled time (another replica saw a new batch). */
  checkNow(): void {
    this.#loop.kick();
  }

  stop(): Promise<void> {
    return this.#loop.stop();
  }

  /** Settles when no check or recording of this recorder is running. */
  idle(): Promise<void> {
    return this.#loop.idle();
  }

  #nextAt(): number {
    const now = this.deps.now();
    // After a failed check, look again soon: the cache's back-off keeps that cheap in an outage.
    const interval = this.#complete ? this.deps.freshMs : Math.min(this.deps.freshMs, RETRY_MS);
    return Math.min(this.deps.nextBatchDue(now), now + interval);
  }

  /** One watch step: confirm or discover the batch, record it when it is new. */
  async check(): Promise<void> {
    const { cache, batch, now } = this.deps;
    const probe = this.deps.probe();
    const cached = cache.peek(probe.key);
    if (!cached || cache.classify(cached, now()) !== 'fresh') {
      cache.refreshInBackground(probe);
      await cache.idle();
    }
    const latest = batch.state.latestAsOf;
    const probed = cache.peek(probe.key);
    this.#complete =
      latest !== null && probed !== undefined && cache.classify(probed, now()) === 'fresh';
    if (latest === null || latest === this.#recordedAsOf) return;
    if (await this.deps.store.hasBatch(new Date(latest))) {
      this.#recordedAsOf = latest;
      return;
    }
    await this.#record(latest);
    if (this.#recordedAsOf !== latest) this.#complete = false;
  }

  async #record(asOf: number): Promise<void> {
    const { specs, store, logger, now } = this.deps;
    const json = await this.#batchEntry(specs.export('json'), asOf);
    const probeEntry = this.deps.cache.peek<HotspotsValue>(this.deps.probe().key);
    let found: Found | null = fromJsonExport(json, asOf, this.deps.exportIndexes);
    if (!found) {
      const csv = await this.#batchEntry(specs.export('csv'), asOf);
      found = fromCsvExport(csv, asOf, hotspotsGlobal(probeEntry, asOf));
    }
    found ??= fromHotspots(probeEntry, asOf);
    if (!found) {
      logger.warn({ as_of: new Date(asOf).toISOString() }, 'new batch not recorded: no source');
      return;
    }
    const recorded = await this.deps.record(found, feedHistoryPoints(json, asOf));
    this.#recordedAsOf = asOf;
    if (recorded) {
      logger.info(
        {
          as_of: new Date(asOf).toISOString(),
          source: found.source,
          countries: found.countries.length,
        },
        'batch recorded in the history',
      );
    }
    await store.prune(now());
  }

  /**
   * The cached entry of `spec` for batch `asOf`, fetched (as background work, within the quota
   * reserve) when the cache does not hold it yet. Undefined when it cannot be had now.
   */
  async #batchEntry(
    spec: ResourceSpec<ExportValue>,
    asOf: number,
  ): Promise<CacheEntry<ExportValue> | undefined> {
    const { cache } = this.deps;
    let entry = cache.peek<ExportValue>(spec.key);
    if (!entry || entry.asOf === null || entry.asOf < asOf) {
      cache.refreshInBackground(spec);
      await cache.idle();
      entry = cache.peek<ExportValue>(spec.key);
    }
    return entry;
  }
}
