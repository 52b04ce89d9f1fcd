import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { ClientIdentity } from '../client-identity.js';
import type { AppConfig } from '../config.js';
import { BatchPipeline } from '../jobs/pipeline.js';
import { timerScheduler, type Scheduler } from '../jobs/scheduler.js';
import { AccessLog, createLogger, LazyChildLogger } from '../logger.js';
import { installAccess } from '../plugins/access.js';
import { installAudit } from '../plugins/audit.js';
import { installCrossSiteGuard } from '../plugins/cross-site.js';
import { clientError, frameworkError, installErrorHandlers } from '../plugins/errors.js';
import { installStrictJson } from '../plugins/json-body.js';
import { installPreloadHints } from '../plugins/preload-hints.js';
import { collectRoutes, installRoles } from '../plugins/roles.js';
import { installSecurity } from '../plugins/security.js';
import { registerSpa } from '../plugins/spa.js';
import { SoloLeadership, type Leadership } from '../replicas/leadership.js';
import { SharedSessions } from '../replicas/shared-sessions.js';
import { auditRoutes } from '../routes/audit.js';
import { identityRoutes } from '../routes/identity.js';
import { ApiTokens } from '../services/identity/api-tokens.js';
import { AuditLog } from '../services/identity/audit.js';
import { countriesRoutes } from '../routes/countries.js';
import { countryRoutes } from '../routes/country.js';
import { exportRoutes } from '../routes/export.js';
import { hotspotRoutes } from '../routes/hotspots.js';
import { describeApi, openapiRoutes } from '../routes/openapi.js';
import { referenceRoutes } from '../routes/reference.js';
import type { DataRouteOptions } from '../routes/respond.js';
import { parseQuerystring } from '../routes/route-schema.js';
import { spreadsheetRoutes } from '../routes/spreadsheet.js';
import { batchCheckRoutes, opsRoutes, statusRoutes } from '../routes/status.js';
import { HistoryStore } from '../store/history-store.js';
import { composeAlerts } from './alerts.js';
import { composeData } from './data.js';
import type { ResolvedUpstream } from './upstream.js';
import { composeHistory } from './history.js';
import { opsOptions } from './ops.js';
import { composeReplicas } from './replicas.js';
import { composeSites } from './sites.js';
import { ReadinessHolds } from '../work/readiness.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Settles when no upstream request of this app is in flight. */
    upstreamIdle(): Promise<void>;
    /** Settles when the batch watch and the event archive have nothing in progress. */
    historyIdle(): Promise<void>;
    /** History questions waiting for their turn (history-question-limit.ts), for tests. */
    historyQuestionsWaiting(): number;
    /** Settles when alert evaluation and the outbox have nothing in progress. */
    alertsIdle(): Promise<void>;
    /**
     * Demo mode, after the history seed: makes the sample watchlist (once) and fills its inbox
     * with the alerts the seeded history produced. Resolves to the alerts added.
     */
    demoWatchlist(): Promise<number>;
    /** Demo mode: the fictional company's sites (only when there are none); the count added. */
    demoSites(): Promise<number>;
    /** `/readyz` answers 503 with `reason` until `work` settles (the demo seed, issue 29). */
    holdReadiness(work: Promise<unknown>, reason: string): void;
  }
}

export type { ResolvedUpstream } from './upstream.js';

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
 * The composition root: every part, job, listener, plugin and route of the BFF is put together
 * here, in the order below. One process and replicas differ in what is composed (the replicas'
 * shared ledger, answers, sessions and leader lease), never in where. Never listens.
 *
 *   1. the HTTP server         5. the batch pipeline and its leader-only jobs
 *   2. the history store       6. listeners: the news that starts each pipeline step
 *   3. replicas (optional)     7. shutdown
 *   4. the parts: data,        8. plugins
 *      history, alerts         9. routes
 */
export async function buildApp(config: AppConfig, deps: AppDeps): Promise<FastifyInstance> {
  const now = deps.now ?? Date.now;

  // 1. The HTTP server.
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
  // Before any route: the OpenAPI document is collected from routes as they are registered, and
  // so is the list of routes and their roles.
  await describeApi(app);
  collectRoutes(app);

  // 2. The history store (issue 7), opened first: with DATABASE_URL the replicas coordinate on it.
  const ownsHistoryStore = !deps.historyStore && config.history !== null;
  const historyStore =
    deps.historyStore ??
    (config.history
      ? await HistoryStore.open({
          dataDir: config.dataDir,
          databaseUrl: config.history.databaseUrl,
          retentionDays: config.history.retentionDays,
          poolMax: config.replicas?.poolMax,
        })
      : undefined);

  // 3. Replicas (issue 9): one budget, one answer cache, one leader, through PostgreSQL.
  const replicas =
    config.replicas && config.history?.databaseUrl && historyStore?.pool
      ? composeReplicas({
          config: config.replicas,
          databaseUrl: config.history.databaseUrl,
          store: historyStore,
          quotaReserve: config.quotaReserve,
          keepAnswersMs: config.freshness.staleIfErrorMs,
          lockWaitMs: config.upstreamTimeouts.requestMs + config.upstreamRetry.maxTotalMs,
          now,
          logger: app.log,
        })
      : null;
  const leadership: Leadership = replicas ? replicas.membership : new SoloLeadership();

  // 4. The parts: the upstream side (quota, cache, client, data), then, on the history store,
  // the history (watch, archive, answers), the alerts (evaluator, outbox, watchlists) and our
  // own sites (import, placement, exposure).
  const parts = composeData(config, deps.upstream, replicas, now, app.log);
  const { cache, quota, store, persistence } = parts;
  const scheduler = deps.scheduler ?? timerScheduler(now);
  const history = historyStore
    ? composeHistory(config, {
        store: historyStore,
        cache,
        specs: parts.specs,
        batch: parts.batch,
        probe: parts.probe,
        now,
        scheduler,
        logger: app.log,
        exportIndexes: parts.exportIndexes,
        onArchived: replicas?.announceArchived,
        clientKey: (request) => identity.clientKey(request),
      })
    : null;
  const alerts = historyStore
    ? composeAlerts(config, {
        store: historyStore,
        now,
        scheduler,
        logger: app.log,
        identity,
        queued: () => pipeline?.queued(),
      })
    : null;
  const sites = historyStore
    ? composeSites(historyStore, now, {
        settings: config.alerts,
        logger: app.log,
        queued: () => pipeline?.queued(),
      })
    : null;

  // 5. The batch pipeline (jobs/pipeline.ts): seen → recorded → evaluated → queued → sent. Its
  // jobs run on the leader only, one of each per term of leadership.
  const pipeline =
    historyStore && history && alerts
      ? new BatchPipeline({
          store: historyStore,
          evaluator: alerts.evaluator,
          siteAlerts: sites?.siteAlerts,
          isLeader: () => leadership.isLeader(),
          queuedElsewhere: replicas?.announceQueued,
        })
      : null;
  if (pipeline && history && alerts) {
    const isLeader = (): boolean => leadership.isLeader();
    leadership.whileLeading(() => {
      const stop = pipeline.watchDuring(history.newWatch(pipeline, isLeader));
      app.log.info({ store: history.store.kind }, 'watching for batches');
      return stop;
    });
    leadership.whileLeading((fence) => pipeline.sendDuring(alerts.newOutbox(fence, isLeader)));
  }

  // 6. Listeners, each list in the order its listeners fire.
  // Seen: a page's request that shows a new batch starts the recording now, not at the next wake.
  if (pipeline) cache.onNewBatch(() => pipeline.seen());
  if (replicas) cache.onNewBatch((asOfText) => replicas.announceBatchSeen(asOfText));
  if (history) cache.onFetched((entry) => history.archiver.receive(entry));
  // Recorded → evaluated. A failed pass is logged by the evaluator; the next batch tries again.
  const stopEvaluating = pipeline
    ? historyStore?.onBatchRecorded(() => {
        pipeline.evaluate().catch(() => undefined);
      })
    : undefined;
  if (replicas) historyStore?.onBatchRecorded(() => replicas.announceStoreChanged());
  if (pipeline) app.addHook('onListen', async () => pipeline.listening());
  // Backtests read two years of numbers once (seconds); after listening, in the background.
  if (alerts) app.addHook('onListen', async () => alerts.warmBacktests());
  // What start-up work the pages wait for; /readyz says "not ready" until it is done.
  const holds = new ReadinessHolds();
  // The country shapes an import places sites on: loaded once after listening, before ready,
  // not inside the first import while others wait (issue 29).
  if (sites) {
    app.addHook('onListen', async () => {
      const loading = new Promise<void>((done) => setImmediate(done)).then(() =>
        sites.warmPlacer(),
      );
      holds.hold(loading, 'The map sites are placed on is still loading; ready in a second');
    });
  }
  if (persistence) {
    store.onChange(() => persistence.schedule());
    quota.onChange(() => persistence.schedule());
  }
  if (replicas && history && pipeline) {
    await replicas.start({ batch: parts.batch, pipeline, archiver: history.archiver });
    parts.metrics.watchCluster(() => replicas.status());
  }

  // 7. Idle and shutdown. Background refreshes still in flight (graceful close, tests, the
  // benchmark's virtual clock).
  app.decorate('upstreamIdle', () => cache.idle());
  if (pipeline && history && alerts) {
    app.decorate('historyIdle', async () => {
      await pipeline.watchIdle();
      await history.archiver.idle();
    });
    app.decorate('historyQuestionsWaiting', () => history.questionLimiter.waiting);
    app.decorate('alertsIdle', () => pipeline.deliveryIdle());
    app.decorate('demoWatchlist', () => alerts.demoWatchlist());
    if (sites) app.decorate('demoSites', () => sites.demoSites());
  }
  app.addHook('onClose', async () => {
    // Stop the upstream client first: a slow upstream must not hold up a shutdown.
    parts.client.close();
    // Leadership first: the jobs stop, and a replica hands its lease over at once.
    await leadership.stop();
    await replicas?.stop();
    stopEvaluating?.();
    await pipeline?.deliveryIdle();
    alerts?.close();
    await history?.archiver.idle();
    await cache.idle();
    await persistence?.close();
    if (ownsHistoryStore) await historyStore?.close();
  });

  // 8. Plugins, in the order their hooks run.
  if (alerts) installCrossSiteGuard(app, config.behindTls);
  installSecurity(app, config);
  // Sessions in the store survive restarts; replicas share them (and revocations, as news).
  const sessions = replicas
    ? replicas.sessions()
    : historyStore
      ? new SharedSessions({
          db: historyStore.db,
          now,
          reportStore: (ok, error) => {
            if (!ok) app.log.warn({ err: error }, 'the session store could not be reached');
          },
          announceRevoked: () => {},
        })
      : undefined;
  const apiTokens = historyStore ? new ApiTokens(historyStore.db, now) : null;
  // Every write and sign-in is appended to the audit log (issue 21), which needs the store.
  const audit = historyStore
    ? new AuditLog({
        db: historyStore.db,
        now,
        retentionDays: config.access.auditRetentionDays ?? 365,
        log: app.log,
      })
    : null;
  const access = await installAccess(app, config, identity, now, {
    sessions,
    apiTokens: apiTokens ?? undefined,
    audit: audit ?? undefined,
  });
  installRoles(app);
  if (audit) installAudit(app, audit, { accessConfigured: access !== null });
  const clientDir = deps.clientDir ?? null;
  if (clientDir) await registerSpa(app, clientDir);
  if (clientDir) installPreloadHints(app);
  installErrorHandlers(app, clientDir !== null);
  installStrictJson(app);

  // 9. Routes.
  const dataOptions: DataRouteOptions = {
    data: parts.data,
    metrics: parts.metrics,
    asOf: history?.asOf ?? null,
    // One client: the person a trusted SSO proxy vouches for, else the address.
    guardFor: (request) => () => parts.limiter.consume(identity.clientKey(request)),
  };
  app.decorate('holdReadiness', (work: Promise<unknown>, reason: string) =>
    holds.hold(work, reason),
  );
  const ops = opsOptions(config, deps.upstream, parts, {
    now,
    history,
    replicas,
    historyStore,
    holds,
  });
  await app.register(hotspotRoutes, dataOptions);
  await app.register(countryRoutes, dataOptions);
  await app.register(exportRoutes, dataOptions);
  await app.register(countriesRoutes, dataOptions);
  await app.register(spreadsheetRoutes, dataOptions);
  await app.register(referenceRoutes);
  await app.register(statusRoutes, ops);
  await app.register(batchCheckRoutes, ops);
  await app.register(opsRoutes, ops);
  await history?.registerRoutes(app);
  await alerts?.registerRoutes(app, history?.admit);
  if (sites && history && alerts) {
    await sites.registerRoutes(app, {
      viewerOf: alerts.viewerOf,
      guardFor: (request) => history.queryLimiter.guardFor(identity.clientKey(request)),
      admit: history.admit,
    });
  }
  await app.register(identityRoutes, {
    signOutPath: access?.signOutPath ?? null,
    apiTokens,
    sessions: access?.sessions ?? null,
  });
  await app.register(auditRoutes, { audit, now });
  await app.register(openapiRoutes);
  return app;
}
