import type { SQL } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { ClientIdentity } from '../client-identity.js';
import type { AppConfig, AlertsConfig } from '../config.js';
import { AlertEvaluator } from '../jobs/alert-evaluator.js';
import { createMailer } from '../jobs/mailer.js';
import { OutboxWorker } from '../jobs/outbox-worker.js';
import type { Scheduler } from '../jobs/scheduler.js';
import { alertRoutes } from '../routes/alerts.js';
import { watchlistRoutes, type WatchlistRouteOptions } from '../routes/watchlists.js';
import { AlertInbox } from '../services/alerts/alert-inbox.js';
import { RuleBacktest } from '../services/alerts/backtest.js';
import { BacktestRequests } from '../services/alerts/backtest-request.js';
import { ensureDemoWatchlist } from '../services/alerts/demo-watchlist.js';
import { DeliveryLogView } from '../services/alerts/delivery-log.js';
import { WatchlistService, type Viewer } from '../services/alerts/watchlists.js';
import type { HistoryStore } from '../store/history-store.js';
import { principalOf } from '../principal.js';
import { meSettingsRoutes } from '../routes/me-settings.js';
import { DailyDigests } from '../services/alerts/daily-digest.js';
import { PersonSettingsService } from '../services/alerts/person-settings.js';

export interface Alerts {
  evaluator: AlertEvaluator;
  /** A new outbox worker for one term of leadership, its claims fenced by that term's lease. */
  newOutbox(fence: SQL | null, isLeader: () => boolean): OutboxWorker;
  /** Makes the demo's sample watchlist (once) and its inbox; resolves to the alerts added. */
  demoWatchlist(): Promise<number>;
  /** `admit`: a backtest's turn under its client's budget (history's limiter, issue 29). */
  registerRoutes(app: FastifyInstance, admit?: WatchlistRouteOptions['admit']): Promise<void>;
  /** Who asks: whose personal lists and read state a request acts on. */
  viewerOf(request: FastifyRequest): Viewer;
  /** Reads the numbers backtests use in the background, so the first backtest is quick. */
  warmBacktests(): void;
  /** Stops that reading and closes the mailer (after the outbox stopped). */
  close(): void;
}

const DEFAULTS: AlertsConfig = { webhookAllowPrivate: false, email: null, linkBase: null };

/**
 * Watchlists and alerts (issue 8), their parts built on the store the composition root opened:
 * the evaluator, the outbox worker for webhooks and e-mail (one per term of leadership), the
 * demo's sample list, the routes. The batch pipeline (jobs/pipeline.ts) runs them.
 */
export function composeAlerts(
  config: AppConfig,
  parts: {
    store: HistoryStore;
    now: () => number;
    scheduler: Scheduler;
    logger: FastifyBaseLogger;
    /** Who asks: the SSO user only on connections from TRUSTED_PROXY_ADDRESSES. */
    identity: ClientIdentity;
    /** Deliveries were queued (the pipeline's "queued" step). */
    queued: () => void;
  },
): Alerts {
  const settings = config.alerts ?? DEFAULTS;
  const { now, logger } = parts;
  const db = parts.store.db;
  const mailer = settings.email
    ? createMailer(settings.email.smtpUrl, settings.email.from, {
        connectMs: 10_000,
        totalMs: 30_000,
      })
    : null;
  const evaluator = new AlertEvaluator({
    db,
    now,
    logger,
    linkBase: settings.linkBase,
    emailEnabled: mailer !== null,
    onQueued: parts.queued,
  });
  const proxyHeader = config.access.trustedProxyAuthHeader;
  // The header is believed only through ClientIdentity (from TRUSTED_PROXY_ADDRESSES), whatever
  // else lets the request in: a token holder must not pick whose personal lists they act on.
  // With OIDC, the person in the session (set by the access plugin from the store, never from
  // anything the request says).
  const viewerOf = (request: FastifyRequest): Viewer =>
    request.principal?.subject?.slice(0, 200) ??
    parts.identity.vouchedUser(request)?.slice(0, 200) ??
    null;
  const digests = new DailyDigests(db, settings.linkBase);
  const watchlists = new WatchlistService({
    db,
    now,
    allowPrivate: settings.webhookAllowPrivate,
    knowsUsers: proxyHeader !== null || (config.access.oidc ?? null) !== null,
    onQueued: parts.queued,
  });

  const backtest = new RuleBacktest(db);
  return {
    evaluator,
    viewerOf,
    newOutbox: (fence, isLeader) =>
      new OutboxWorker({
        db,
        now,
        logger,
        mailer,
        fence,
        isLeader,
        scheduler: parts.scheduler,
        digests,
        send: {
          allowPrivate: settings.webhookAllowPrivate,
          connectTimeoutMs: 5_000,
          totalTimeoutMs: 15_000,
        },
      }),
    demoWatchlist: async () => {
      const id = await ensureDemoWatchlist(db);
      return id === null ? 0 : evaluator.backfill(id);
    },
    registerRoutes: async (target, admit) => {
      await target.register(watchlistRoutes, {
        watchlists,
        backtests: new BacktestRequests(
          backtest,
          watchlists,
          // Numbers change with batches; breaking events with the archive: either is a new revision.
          () => parts.store.batchRevision + parts.store.eventRevision,
        ),
        admit,
        deliveryLog: new DeliveryLogView(db),
        viewerOf,
      });
      await target.register(meSettingsRoutes, {
        settings: new PersonSettingsService(db, now),
        ownerOf: (request) => ({
          subject: viewerOf(request),
          email: request.principal?.email ?? null,
        }),
      });
      await target.register(alertRoutes, {
        inbox: new AlertInbox(db, settings.linkBase, now),
        viewerOf,
        actorOf: (request) => ({ name: principalOf(request).name, subject: viewerOf(request) }),
      });
    },
    warmBacktests: () => void backtest.warm(),
    close: () => {
      backtest.stop();
      mailer?.close();
    },
  };
}
