import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Process metrics (CPU, memory, event loop) are collected once per process: prom-client starts an
 * event-loop monitor per call, which must not pile up when tests build many apps.
 */
let processRegistry: Registry | null = null;
function sharedProcessRegistry(): Registry {
  if (processRegistry === null) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, prefix: 'grd_' });
    watchEventLoopDelay(processRegistry);
  }
  return processRegistry;
}

/**
 * The event loop's delay since the previous scrape (issue 29: heavy work must not hold the thread
 * that answers): p50, p99 and the longest, in seconds. One monitor per process, like the rest of
 * this registry; its 5 ms resolution makes values under ~5 ms read as 5 ms.
 */
function watchEventLoopDelay(register: Registry): void {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  new Gauge({
    name: 'grd_event_loop_delay_seconds',
    help: 'Event-loop delay since the previous scrape (perf_hooks.monitorEventLoopDelay), by quantile (0.5, 0.99, max).',
    labelNames: ['quantile'] as const,
    registers: [register],
    collect() {
      // No sample yet (a scrape right after the previous one): the histogram reads 0, not NaN.
      const seconds = (ns: number) => (Number.isFinite(ns) ? ns / 1e9 : 0);
      this.set({ quantile: '0.5' }, seconds(delay.percentile(50)));
      this.set({ quantile: '0.99' }, seconds(delay.percentile(99)));
      this.set({ quantile: 'max' }, seconds(delay.max));
      delay.reset();
    },
  });
}

export type CacheResult = 'hit' | 'miss' | 'stale';

export interface QuotaReader {
  remaining(): number | null;
  limit(): number | null;
  usedLast60Min(): number;
}

/** The app's own metrics, in its own Registry (never the global one, so apps never collide). */
export class Metrics {
  readonly registry = new Registry();
  readonly upstreamRequests = new Counter({
    name: 'grd_upstream_requests_total',
    help: 'Requests sent to the Risk API, by route and HTTP status (or failure class).',
    labelNames: ['route', 'status'] as const,
    registers: [this.registry],
  });
  readonly cacheResults = new Counter({
    name: 'grd_cache_results_total',
    help: 'Answers served by the BFF by route and cache result (hit, miss, stale).',
    labelNames: ['route', 'result'] as const,
    registers: [this.registry],
  });
  readonly clientLimited = new Counter({
    name: 'grd_client_miss_limited_total',
    help: 'Requests refused because one client caused too many cache misses.',
    registers: [this.registry],
  });
  /** Plain totals for /api/status (prom-client counters are only readable asynchronously). */
  readonly totals = { hits: 0, misses: 0, stale: 0 };

  /** Replicas (DATABASE_URL): leadership, the store's reachability, replicas seen. */
  watchCluster(status: () => { role: string; store: string; replicas_seen: number }): void {
    const registers = [this.registry];
    new Gauge({
      name: 'grd_cluster_leader',
      help: '1 while this replica holds the leader lease (batch watch, alerts, delivery), else 0.',
      registers,
      collect() {
        this.set(status().role === 'leader' ? 1 : 0);
      },
    });
    new Gauge({
      name: 'grd_cluster_store_up',
      help: '1 while PostgreSQL is reachable from this replica, else 0 (serving from memory).',
      registers,
      collect() {
        this.set(status().store === 'ok' ? 1 : 0);
      },
    });
    new Gauge({
      name: 'grd_cluster_replicas_seen',
      help: 'Replicas with a heartbeat in the last minute, this one included.',
      registers,
      collect() {
        this.set(status().replicas_seen);
      },
    });
  }

  constructor(
    quota: QuotaReader,
    cacheEntries: () => number,
    cacheBytes: () => { entries: number; rendered: number; variants: number } = () => ({
      entries: 0,
      rendered: 0,
      variants: 0,
    }),
  ) {
    const registers = [this.registry];
    new Gauge({
      name: 'grd_upstream_quota_remaining',
      help: 'Estimated requests left in the sliding 60-minute window of the key (-1 unknown).',
      registers,
      collect() {
        this.set(quota.remaining() ?? -1);
      },
    });
    new Gauge({
      name: 'grd_upstream_quota_limit',
      help: 'Hourly request limit of the key as the upstream reports it (-1 unknown).',
      registers,
      collect() {
        this.set(quota.limit() ?? -1);
      },
    });
    new Gauge({
      name: 'grd_upstream_requests_last_60min',
      help: 'Requests this BFF sent to the Risk API in the last 60 minutes.',
      registers,
      collect() {
        this.set(quota.usedLast60Min());
      },
    });
    new Gauge({
      name: 'grd_cache_entries',
      help: 'Entries held in the response cache.',
      registers,
      collect() {
        this.set(cacheEntries());
      },
    });
    new Gauge({
      name: 'grd_cache_bytes',
      help: 'Bytes held by the cache: upstream entries, and answers rendered from them (all variants, compressed forms included).',
      labelNames: ['part'] as const,
      registers,
      collect() {
        const bytes = cacheBytes();
        this.set({ part: 'entries' }, bytes.entries);
        this.set({ part: 'rendered' }, bytes.rendered);
      },
    });
    new Gauge({
      name: 'grd_cache_rendered_variants',
      help: 'Rendered answers (variants such as a hotspot limit and tier set) held in memory.',
      registers,
      collect() {
        this.set(cacheBytes().variants);
      },
    });
  }

  readonly #cacheCounters = new Map<string, { inc(): void }>();

  countCache(route: string, result: CacheResult): void {
    // One labelled child per (route, result): a hit should not hash label objects.
    const key = `${route}|${result}`;
    let counter = this.#cacheCounters.get(key);
    if (!counter) {
      counter = this.cacheResults.labels(route, result);
      this.#cacheCounters.set(key, counter);
    }
    counter.inc();
    if (result === 'hit') this.totals.hits++;
    else if (result === 'miss') this.totals.misses++;
    else this.totals.stale++;
  }

  async text(): Promise<string> {
    const own = await this.registry.metrics();
    const process = await sharedProcessRegistry().metrics();
    return `${own}\n${process}`;
  }

  contentType(): string {
    return this.registry.contentType;
  }
}
