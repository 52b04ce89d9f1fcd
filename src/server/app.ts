import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { BatchTracker } from './cache/batch.js';
import { RenderedBodies } from './services/rendering/rendered-bodies.js';
import { CachePersistence } from './cache/persistence.js';
import { ResourceCache } from './cache/resource-cache.js';
import { CacheEntries } from './cache/entries.js';
import { ClientIdentity } from './client-identity.js';
import { ClientMissLimiter } from './client-limit.js';
import type { AppConfig } from './config.js';
import { isServableValue, ResourceSpecs } from './services/upstream-resources/resource-specs.js';
import { ExportIndexes } from './services/upstream-resources/export-index.js';
import { RiskAnswers } from './services/risk-answers/risk-answers.js';
import { buildStatus } from './services/status/status.js';
import { AccessLog, createLogger, LazyChildLogger } from './logger.js';
import { Metrics } from './metrics.js';
import { installAccess } from './plugins/access.js';
import { clientError, frameworkError, installErrorHandlers } from './plugins/errors.js';
import { installStrictJson } from './plugins/json-body.js';
import { installPreloadHints } from './plugins/preload-hints.js';
import { installSecurity } from './plugins/security.js';
import { registerSpa } from './plugins/spa.js';
import { countriesRoutes } from './routes/countries.js';
import { countryRoutes } from './routes/country.js';
import { exportRoutes } from './routes/export.js';
import { hotspotRoutes } from './routes/hotspots.js';
import { referenceRoutes } from './routes/reference.js';
import type { DataRouteOptions } from './routes/respond.js';
import { parseQuerystring } from './routes/route-schema.js';
import { spreadsheetRoutes } from './routes/spreadsheet.js';
import { describeApi, openapiRoutes } from './routes/openapi.js';
import {
  batchCheckRoutes,
  CHECK_NOW_GAP_MS,
  opsRoutes,
  statusRoutes,
  type OpsRouteOptions,
} from './routes/status.js';
import type { Secret } from './secret.js';
import { UpstreamClient } from './upstream/client.js';
import { startAlerts } from './alerts.js';
import { startHistory } from './history.js';
import { createCluster } from './cluster.js';
import { SoloLeadership, type Leadership } from './replicas/leadership.js';
import { HistoryStore } from './store/history-store.js';
import type { Scheduler } from './jobs/scheduler.js';
import { QuotaGovernor } from './upstream/quota.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Settles when no upstream request of this app is in flight. */
    upstreamIdle(): Promise<void>;
  }
}

export interface ResolvedUpstream {
  mode: 'demo' | 'live';
  baseUrl: string;
  apiKey: Secret;
}

export interface AppDeps {
  upstream: ResolvedUpstream;
  /** Built SPA (dist/client) to serve; null/undefined serves the API only. */
  clientDir?: string | null;
  /** Injectable clock for freshness and quota logic in tests. */
  now?: () => number;
  /** Tests pass a pino writing to a buffer (the key-leak test searches it). */
  logger?: Logger;
  /** An open history store to use (the caller closes it); else one is opened from config. */
  historyStore?: HistoryStore;
  /** When the batch watch wakes; tests drive it with their clock. */
  scheduler?: Scheduler;
}

/**
 * Builds the BFF: services first (quota governor, cache, upstream client, data), then plugins
 * (security headers, access control, error shape, SPA), then routes, explicitly. Never listens.
 * The key goes into the upstream client only; routes get the data service and nothing else.
 */
export async function buildApp(config: AppConfig, deps: AppDeps): Promise<FastifyInstance> {
  const now = deps.now ?? Date.now;
  const logger: FastifyBaseLogger = deps.logger ?? createLogger(config.logLevel);
  const identity = new ClientIdentity(
    config.access.trustedProxyAuthHeader,
    config.access.trustedProxyAddresses ?? [],
  );
  const app = Fastify({
    // X-Forwarded-For names the client only on connections from our own proxies.
    trustProxy: (address: string) => identity.isProxy(address),
    loggerInstance: logger,
    // Long enough that an overlong ISO code reaches validation (and gets a 400, not a 404).
    // Undecodable query values are marked for a 400, never kept as their raw text.
    routerOptions: { maxParamLength: 1000, querystringParser: parseQuerystring },
    bodyLimit: 16 * 1024,
    frameworkErrors: frameworkError,
    clientErrorHandler: clientError,
    logController: new AccessLog(),
    childLoggerFactory: (parent, bindings, options) =>
      new LazyChildLogger(parent, bindings, options) as unknown as FastifyBaseLogger,
  });
  // Before any route: the OpenAPI document is collected from routes as they are registered.
  await describeApi(app);

  // The history store (issue 7), opened first: with DATABASE_URL the replicas coordinate on it.
  const ownsHistoryStore = !deps.historyStore && config.history !== null;
  const historyStore =
    deps.historyStore ??
    (config.history
      ? await HistoryStore.open({
          dataDir: config.dataDir,
          databaseUrl: config.history.databaseUrl,
          retentionDays: config.history.retentionDays,
          poolMax: config.cluster?.poolMax,
        })
      : undefined);
  // Replicas (issue 9): one budget, one answer cache, one leader, through PostgreSQL.
  const cluster =
    config.cluster && config.history?.databaseUrl && historyStore?.pool
      ? createCluster({
          config: config.cluster,
          databaseUrl: config.history.databaseUrl,
          store: historyStore,
          quotaReserve: config.quotaReserve,
          keepAnswersMs: config.freshness.staleIfErrorMs,
          lockWaitMs: config.upstreamTimeouts.requestMs + config.upstreamRetry.maxTotalMs,
          now,
          logger: app.log,
        })
      : null;
  const leadership: Leadership = cluster ? cluster.membership : new SoloLeadership();
  // The governor the status and metrics read: this process's, or the shared ledger's mirror.
  const quota = cluster?.quota.mirror ?? new QuotaGovernor(config.quotaReserve, now);
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
    baseUrl: deps.upstream.baseUrl,
    apiKey: deps.upstream.apiKey,
    timeouts: config.upstreamTimeouts,
    retry: config.upstreamRetry,
    quota: cluster?.quota ?? quota,
    now,
    logger: app.log,
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
    app.log,
    cluster?.answers,
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
  const limiter = cluster?.missLimiter(localLimiter, config.clientMissesPerMinute) ?? localLimiter;

  const persistence = config.dataDir
    ? new CachePersistence(
        config.dataDir,
        deps.upstream.mode,
        deps.upstream.baseUrl,
        () => ({ batch: batch.state, quota: quota.snapshot(), entries: store.entries().reverse() }),
        app.log,
        isServableValue,
      )
    : null;
  if (persistence) {
    const saved = persistence.load();
    if (saved) {
      batch.restore(saved.batch);
      quota.restore(saved.quota);
      store.restore(saved.entries);
      app.log.info({ entries: saved.entries.length }, 'cache restored from disk');
    }
    store.onChange(() => persistence.schedule());
    quota.onChange(() => persistence.schedule());
  }

  // The history (issue 7): the batch watch, the event archive, their routes.
  const history = historyStore
    ? startHistory(
        app,
        config,
        { store: historyStore, scheduler: deps.scheduler },
        {
          cache,
          specs,
          batch,
          probe,
          now,
          exportIndexes,
          leadership,
          onArchived: cluster?.announceArchived,
          clientKey: (request) => identity.clientKey(request),
        },
      )
    : null;
  // Watchlists and alerts (issue 8) live in the same store.
  const alerts = historyStore
    ? startAlerts(app, config, {
        store: historyStore,
        now,
        scheduler: deps.scheduler,
        leadership,
        identity,
        queuedElsewhere: cluster?.announceQueued,
      })
    : null;
  if (cluster && history) {
    await cluster.start({ batch, cache, history, alerts });
    metrics.watchCluster(() => cluster.status());
  }

  // Background refreshes still in flight (graceful close, tests, the benchmark's virtual clock).
  app.decorate('upstreamIdle', () => cache.idle());
  app.addHook('onClose', async () => {
    // Stop the upstream client first: a slow upstream must not hold up a shutdown.
    client.close();
    // Leadership first: the jobs stop, and a replica hands its lease over at once.
    await leadership.stop();
    await cluster?.stop();
    await alerts?.stop();
    await history?.stop();
    await cache.idle();
    await persistence?.close();
    if (ownsHistoryStore) await historyStore?.close();
  });

  installSecurity(app, config);
  await installAccess(
    app,
    config,
    identity,
    now,
    cluster ? (lifetimeMs) => cluster.sessions(lifetimeMs) : undefined,
  );
  const clientDir = deps.clientDir ?? null;
  if (clientDir) await registerSpa(app, clientDir);
  if (clientDir) installPreloadHints(app);
  installErrorHandlers(app, clientDir !== null);
  installStrictJson(app);

  const dataOptions: DataRouteOptions = {
    data,
    metrics,
    // One client: the person a trusted SSO proxy vouches for, else the address.
    guardFor: (request) => () => limiter.consume(identity.clientKey(request)),
  };
  const opsOptions: OpsRouteOptions = {
    metrics,
    checkNow: () => cache.checkNow(CHECK_NOW_GAP_MS),
    status: () => ({
      ...buildStatus({
        mode: deps.upstream.mode,
        config,
        policy: config.freshness,
        batch,
        cache,
        store,
        client,
        quota,
        metrics,
        now,
      }),
      history: history?.coverage ?? null,
      cluster: cluster?.status() ?? null,
      store: historyStore?.health() ?? null,
    }),
    ready: () => {
      // A store that cannot keep what it is given is not ready, whatever data is in memory.
      const storeHealth = historyStore?.health();
      if (storeHealth?.health === 'failing') {
        return { ready: false, reason: storeHealth.message ?? 'The history store is failing' };
      }
      if (cache.peek(probe().key)) return { ready: true, reason: '' };
      // Readiness probes drive the first fetch, so an idle new instance becomes ready by itself.
      cache.refreshInBackground(probe());
      const error = client.health().lastError;
      return {
        ready: false,
        reason: `No data to serve yet${error ? `: ${error.message}` : '; fetching it now'}`,
      };
    },
  };
  await app.register(hotspotRoutes, dataOptions);
  await app.register(countryRoutes, dataOptions);
  await app.register(exportRoutes, dataOptions);
  await app.register(countriesRoutes, dataOptions);
  await app.register(spreadsheetRoutes, dataOptions);
  await app.register(referenceRoutes);
  await app.register(statusRoutes, opsOptions);
  await app.register(batchCheckRoutes, opsOptions);
  await app.register(opsRoutes, opsOptions);
  await history?.registerRoutes(app);
  await alerts?.registerRoutes(app);
  await app.register(openapiRoutes);
  return app;
}
