import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppConfig, AlertsConfig } from './config.js';
import { AlertEvaluator } from './jobs/alert-evaluator.js';
import { createMailer } from './jobs/mailer.js';
import { OutboxWorker } from './jobs/outbox-worker.js';
import { timerScheduler, type Scheduler } from './jobs/scheduler.js';
import { installCrossSiteGuard } from './plugins/cross-site.js';
import { alertRoutes } from './routes/alerts.js';
import { watchlistRoutes } from './routes/watchlists.js';
import { AlertInbox } from './services/alerts/alert-inbox.js';
import { ensureDemoWatchlist } from './services/alerts/demo-watchlist.js';
import { DeliveryLogView } from './services/alerts/delivery-log.js';
import { WatchlistService, type Viewer } from './services/alerts/watchlists.js';
import type { HistoryStore } from './store/history-store.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Settles when alert evaluation and the outbox have nothing in progress. */
    alertsIdle(): Promise<void>;
    /**
     * Demo mode, after the history seed: makes the sample watchlist (once) and fills its inbox
     * with the alerts the seeded history produced. Resolves to the alerts added.
     */
    demoWatchlist(): Promise<number>;
  }
}

export interface Alerts {
  evaluator: AlertEvaluator;
  outbox: OutboxWorker;
  registerRoutes(app: FastifyInstance): Promise<void>;
  stop(): Promise<void>;
}

const DEFAULTS: AlertsConfig = { webhookAllowPrivate: false, email: null, linkBase: null };

/**
 * Watchlists and alerts (issue 8), wired in one place: evaluation once per newly recorded batch
 * (the store tells), the outbox worker for webhooks and e-mail, the demo's sample list, routes.
 */
export async function startAlerts(
  app: FastifyInstance,
  config: AppConfig,
  parts: { store: HistoryStore; now: () => number; scheduler?: Scheduler },
): Promise<Alerts> {
  const settings = config.alerts ?? DEFAULTS;
  const { store, now } = parts;
  const db = store.db;
  const mailer = settings.email
    ? createMailer(settings.email.smtpUrl, settings.email.from, {
        connectMs: 10_000,
        totalMs: 30_000,
      })
    : null;
  const outbox = new OutboxWorker({
    db,
    now,
    logger: app.log,
    mailer,
    scheduler: parts.scheduler ?? timerScheduler(now),
    send: {
      allowPrivate: settings.webhookAllowPrivate,
      connectTimeoutMs: 5_000,
      totalTimeoutMs: 15_000,
    },
  });
  const evaluator = new AlertEvaluator({
    db,
    now,
    logger: app.log,
    linkBase: settings.linkBase,
    emailEnabled: mailer !== null,
    onQueued: () => outbox.kick(),
  });
  const proxyHeader = config.access.trustedProxyAuthHeader;
  const viewerOf = (request: FastifyRequest): Viewer => {
    if (!proxyHeader) return null;
    const value = request.headers[proxyHeader];
    return typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, 200) : null;
  };
  const watchlists = new WatchlistService({
    db,
    now,
    allowPrivate: settings.webhookAllowPrivate,
    knowsUsers: proxyHeader !== null,
    onQueued: () => outbox.kick(),
  });

  // A failed pass is logged by the evaluator; the next batch (or restart) tries again.
  const removeListener = store.onBatchRecorded(() => {
    evaluator.evaluatePending().catch(() => undefined);
  });
  app.decorate('alertsIdle', async () => {
    await evaluator.idle();
    await outbox.idle();
  });
  app.decorate('demoWatchlist', async () => {
    const id = await ensureDemoWatchlist(db);
    return id === null ? 0 : evaluator.backfill(id);
  });
  await evaluator.evaluatePending();
  outbox.start();
  installCrossSiteGuard(app, config.behindTls);

  return {
    evaluator,
    outbox,
    registerRoutes: async (target) => {
      await target.register(watchlistRoutes, {
        watchlists,
        deliveryLog: new DeliveryLogView(db),
        viewerOf,
      });
      await target.register(alertRoutes, {
        inbox: new AlertInbox(db, settings.linkBase),
        viewerOf,
      });
    },
    stop: async () => {
      removeListener();
      await evaluator.idle();
      await outbox.stop();
      mailer?.close();
    },
  };
}
