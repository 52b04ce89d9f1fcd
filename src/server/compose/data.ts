import type { FastifyBaseLogger } from 'fastify';
import { BatchTracker } from '../cache/batch.js';
import { CachePersistence } from '../cache/persistence.js';
import { ResourceCache, type ResourceSpec } from '../cache/resource-cache.js';
import { CacheEntries } from '../cache/entries.js';
import { ClientMissLimiter } from '../client-limit.js';
import type { AppConfig } from '../config.js';
import { Metrics } from '../metrics.js';
import type { SharedMissLimiter } from '../replicas/shared-miss-limiter.js';
import { RiskAnswers } from '../services/risk-answers/risk-answers.js';
import { RenderedBodies } from '../services/rendering/rendered-bodies.js';
import { ExportIndexes } from '../services/upstream-resources/export-index.js';
import {
  isServableValue,
  ResourceSpecs,
  type HotspotsValue,
} from '../services/upstream-resources/resource-specs.js';
import { UpstreamClient } from '../upstream/client.js';
import { QuotaGovernor } from '../upstream/quota.js';
import type { ResolvedUpstream } from './upstream.js';
import type { Replicas } from './replicas.js';

/** The upstream side of the app: what answers a page's data request, and what it spends. */
export interface DataParts {
  /** The governor the status and metrics read: this process's, or the shared ledger's mirror. */
  quota: QuotaGovernor;
  store: CacheEntries;
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
}

/**
 * Quota governor, cache, upstream client, data service, per-client limits, cache file: built
 * in this order, each on the ones before. The key goes into the upstream client only.
 */
export function composeData(
  config: AppConfig,
  upstream: ResolvedUpstream,
  replicas: Replicas | null,
  now: () => number,
  logger: FastifyBaseLogger,
): DataParts {
  const quota = replicas?.quota.mirror ?? new QuotaGovernor(config.quotaReserve, now);
  const entryBytes = Math.floor(config.cacheMaxBytes * 0.75);
  const store = new CacheEntries(config.cacheMaxEntries, entryBytes);
  const bodies = new RenderedBodies(config.cacheMaxBytes - entryBytes);
  const batch = new BatchTracker();
  const metrics = new Metrics(
    quota,
    () => store.size,
    () => ({ entries: store.bytes, rendered: bodies.bytes, variants: bodies.size }),
  );
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
    store,
    batch,
    config.freshness,
    now,
    probe,
    logger,
    replicas?.answers,
  );
  const data = new RiskAnswers(cache, specs, client, metrics, now, bodies, exportIndexes);
  const localLimiter = new ClientMissLimiter(
    {
      perMinute: config.clientMissesPerMinute,
      hourlySharePercent: config.clientBudgetSharePercent,
      keyLimit: () => quota.effectiveLimit(),
    },
    now,
  );
  const limiter = replicas?.missLimiter(localLimiter, config.clientMissesPerMinute) ?? localLimiter;

  const persistence = config.dataDir
    ? new CachePersistence(
        config.dataDir,
        upstream.mode,
        upstream.baseUrl,
        () => ({ batch: batch.state, quota: quota.snapshot(), entries: store.entries().reverse() }),
        logger,
        isServableValue,
      )
    : null;
  const saved = persistence?.load();
  if (saved) {
    batch.restore(saved.batch);
    quota.restore(saved.quota);
    store.restore(saved.entries);
    logger.info({ entries: saved.entries.length }, 'cache restored from disk');
  }
  return {
    quota,
    store,
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
  };
}
