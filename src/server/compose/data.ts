import type { FastifyBaseLogger } from 'fastify';
import { BatchTracker } from '../cache/batch.js';
import { CachePersistence } from '../cache/persistence.js';
import { ResourceCache, type ResourceSpec } from '../cache/resource-cache.js';
import { CacheEntries } from '../cache/entries.js';
import { ClientMissLimiter } from '../client-limit.js';
import type { DataConfig } from '../config.js';
import { Metrics } from '../metrics.js';
import { FastAnswers } from '../services/rendering/fast-answers.js';
import type { SharedMissLimiter } from '../replicas/shared-miss-limiter.js';
import { RiskAnswers } from '../services/risk-answers/risk-answers.js';
import { ExportIndexes } from '../services/upstream-resources/export-index.js';
import {
  isServableValue,
  ResourceSpecs,
  type HotspotsValue,
} from '../services/upstream-resources/resource-specs.js';
import { UpstreamClient } from '../upstream/client.js';
import { QuotaGovernor } from '../upstream/quota.js';
import type { ResolvedUpstream } from './upstream.js';
import type { TeamView } from '../services/team-index/team-view.js';
import type { FastifyRequest } from 'fastify';
import type { AsOfRouteParts } from '../routes/as-of.js';
import type { DataRouteOptions } from '../routes/respond.js';
import type { Replicas } from './replicas.js';

/** The upstream side of the app: what answers a page's data request, and what it spends. */
export interface DataParts {
  /** The governor the status and metrics read: this process's, or the shared ledger's mirror. */
  quota: QuotaGovernor;
  /** The upstream answers held in memory (an LRU bounded in entries and bytes). */
  entries: CacheEntries;
  batch: BatchTracker;
  metrics: Metrics;
  client: UpstreamClient;
  exportIndexes: ExportIndexes;
  specs: ResourceSpecs;
  /** The request that confirms or discovers a batch (the hotspot list). */
  probe: () => ResourceSpec<HotspotsValue>;
  cache: ResourceCache;
  data: RiskAnswers;
  /** Cache misses per client (shared among replicas). */
  limiter: ClientMissLimiter | SharedMissLimiter;
  /** The cache file under DATA_DIR (null without one); restored here, saved on change. */
  persistence: CachePersistence | null;
  /** Fresh answers written before Fastify (the hot path); turned on by the plugins. */
  fast: FastAnswers;
}

/**
 * Quota governor, cache, upstream client, data service, per-client limits, cache file: built
 * in this order, each on the ones before. The key goes into the upstream client only.
 */
export function composeData(
  config: DataConfig,
  parts: {
    upstream: ResolvedUpstream;
    replicas: Replicas | null;
    /** Where the cache file lives (DATA_DIR); null keeps it in memory only. */
    dataDir: string | null;
    now: () => number;
    logger: FastifyBaseLogger;
  },
): DataParts {
  const { upstream, replicas, dataDir, now, logger } = parts;
  const quota = replicas?.quota.mirror ?? new QuotaGovernor(config.quotaReserve, now);
  const entryBytes = Math.floor(config.cacheMaxBytes * 0.75);
  const entries = new CacheEntries(
    config.cacheMaxEntries,
    entryBytes,
    config.cacheMaxBytes - entryBytes,
  );
  const batch = new BatchTracker();
  const metrics = new Metrics(
    quota,
    () => entries.size,
    () => ({
      entries: entries.bytes,
      rendered: entries.rendered.bytes,
      variants: entries.rendered.size,
    }),
  );
  if (replicas) metrics.watchCluster(() => replicas.status());
  const client = new UpstreamClient({
    baseUrl: upstream.baseUrl,
    apiKey: upstream.apiKey,
    timeouts: config.upstreamTimeouts,
    retry: config.upstreamRetry,
    quota: replicas?.quota ?? quota,
    now,
    logger,
    metrics,
  });
  const exportIndexes = new ExportIndexes();
  const specs = new ResourceSpecs(client, exportIndexes);
  const probe = (): ReturnType<ResourceSpecs['hotspots']> => specs.hotspots([], []);
  const cache = new ResourceCache(
    entries,
    batch,
    config.freshness,
    now,
    probe,
    logger,
    replicas?.answers,
  );
  const data = new RiskAnswers(cache, specs, client, metrics, now, exportIndexes);
  const localLimiter = missLimiter(config, quota, now);
  const limiter = replicas?.missLimiter(localLimiter, config.clientMissesPerMinute) ?? localLimiter;

  const persistence = dataDir
    ? restoredCache(dataDir, upstream, { batch, quota, entries }, logger)
    : null;
  return {
    quota,
    entries,
    batch,
    metrics,
    client,
    exportIndexes,
    specs,
    probe,
    cache,
    data,
    limiter,
    persistence,
    fast: new FastAnswers(),
  };
}

/** Each client's share of the upstream budget: cache misses a minute and of the hour. */
function missLimiter(config: DataConfig, quota: QuotaGovernor, now: () => number) {
  return new ClientMissLimiter(
    {
      perMinute: config.clientMissesPerMinute,
      hourlySharePercent: config.clientBudgetSharePercent,
      keyLimit: () => quota.effectiveLimit(),
    },
    now,
  );
}

/**
 * The cache file under DATA_DIR: what it held is restored into the batch tracker, the quota and
 * the entries, and any change to them is saved again.
 */
function restoredCache(
  dataDir: string,
  upstream: ResolvedUpstream,
  state: { batch: BatchTracker; quota: QuotaGovernor; entries: CacheEntries },
  logger: FastifyBaseLogger,
): CachePersistence {
  const { batch, quota, entries } = state;
  const persistence = new CachePersistence(
    dataDir,
    upstream.mode,
    upstream.baseUrl,
    () => ({ batch: batch.state, quota: quota.snapshot(), entries: entries.entries().reverse() }),
    logger,
    isServableValue,
  );
  const saved = persistence.load();
  if (saved) {
    batch.restore(saved.batch);
    quota.restore(saved.quota);
    entries.restore(saved.entries);
    logger.info({ entries: saved.entries.length }, 'cache restored from disk');
  }
  entries.onChange(() => persistence.schedule());
  quota.onChange(() => persistence.schedule());
  return persistence;
}

/** What the data routes answer with; `?as_of=` from the history when there is one. */
export function dataRouteOptions(
  data: DataParts,
  asOf: AsOfRouteParts | null,
  clientKey: (request: FastifyRequest) => string,
  /** `?index=team` (issue 31); absent without a store. */
  team?: TeamView,
): DataRouteOptions {
  return {
    team,
    data: data.data,
    metrics: data.metrics,
    asOf,
    fast: data.fast,
    // One client: the person a trusted SSO proxy vouches for, else the address.
    guardFor: (request) => () => data.limiter.consume(clientKey(request)),
  };
}
