import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ClientIdentity } from './client-identity.js';
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
import type { Leadership } from './replicas/leadership.js';
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
  /** Sends what is due now, when this process runs the outbox (another replica queued it). */
  kickOutbox(): void;
  registerRoutes(app: FastifyInstance): Promise<void>;
  stop(): Promise<void>;
}

const DEFAULTS: AlertsConfig = { webhookAllowPrivate: false, email: null, linkBase: null };

/**
 * Watchlists and alerts (issue 8), wired in one place: evaluation once per newly recorded batch
 * (the store tells), the outbox worker for webhooks and e-mail, the demo's sample list, routes.
 * Evaluation and delivery run on the leader only (one process, or the holder of the lease).
 */
export function startAlerts(
  app: FastifyInstance,
  config: AppConfig,
  parts: {
    store: HistoryStore;
    now: () => number;
    scheduler?: Scheduler;
    leadership: Leadership;
    /** Who asks: the SSO user only on connections from TRUSTED_PROXY_ADDRESSES. */
    identity: ClientIdentity;
    /** Replicas: a delivery queued here while another replica leads (tell it). */
    queuedElsewhere?: () => void;
  },
): Alerts {
  const settings = config.alerts ?? DEFAULTS;
  const { store, now } = parts;
  const db = store.db;
  const mailer = settings.email
    ? createMailer(settings.email.smtpUrl, settings.email.from, {
        connectMs: 10_000,
        totalMs: 30_000,
      })
    : null;
  // One worker per term of leadership, its claims fenced by that term's lease.
  let outbox: OutboxWorker | null = null;
  const queued = (): void => {
    if (outbox) outbox.kick();
    else parts.queuedElsewhere?.();
  };
  const evaluator = new AlertEvaluator({
    db,
    now,
    logger: app.log,
    linkBase: settings.linkBase,
    emailEnabled: mailer !== null,
    onQueued: queued,
  });
  // Start-up never waits on evaluation: batches left pending (recorded while nobody led, or
  // before a restart) are evaluated in the background once the port is open, or at once when
  // leadership comes later. An app that never listens (tests) evaluates them with its next batch.
  let listening = false;
  let pendingAtListen = false;
  const evaluateLeftovers = (): void => {
    if (listening) evaluator.evaluatePending().catch(() => undefined);
    else pendingAtListen = true;
  };
  app.addHook('onListen', async () => {
    listening = true;
    if (pendingAtListen && parts.leadership.isLeader()) {
      evaluator.evaluatePending().catch(() => undefined);
    }
  });
  parts.leadership.whileLeading((fence) => {
    const term = new OutboxWorker({
      db,
      now,
      logger: app.log,
      mailer,
      fence,
      scheduler: parts.scheduler ?? timerScheduler(now),
      send: {
        allowPrivate: settings.webhookAllowPrivate,
        connectTimeoutMs: 5_000,
        totalTimeoutMs: 15_000,
      },
    });
    outbox = term;
    evaluateLeftovers();
    term.start();
    return async () => {
      await term.stop();
      if (outbox === term) outbox = null;
    };
  });
  const proxyHeader = config.access.trustedProxyAuthHeader;
  // The header is believed only through ClientIdentity (from TRUSTED_PROXY_ADDRESSES), whatever
  // else lets the request in: a token holder must not pick whose personal lists they act on.
  const viewerOf = (request: FastifyRequest): Viewer =>
    parts.identity.vouchedUser(request)?.slice(0, 200) ?? null;
  const watchlists = new WatchlistService({
    db,
    now,
    allowPrivate: settings.webhookAllowPrivate,
    knowsUsers: proxyHeader !== null,
    onQueued: queued,
  });

  // A failed pass is logged by the evaluator; the next batch (or restart) tries again.
  const removeListener = store.onBatchRecorded(() => {
    if (parts.leadership.isLeader()) evaluator.evaluatePending().catch(() => undefined);
  });
  app.decorate('alertsIdle', async () => {
    await evaluator.idle();
    await outbox?.idle();
  });
  app.decorate('demoWatchlist', async () => {
    const id = await ensureDemoWatchlist(db);
    return id === null ? 0 : evaluator.backfill(id);
  });
  installCrossSiteGuard(app, config.behindTls);

  return {
    evaluator,
    kickOutbox: () => outbox?.kick(),
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
      await outbox?.stop();
      mailer?.close();
    },
  };
}
