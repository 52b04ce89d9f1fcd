import type { SQL } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { ClientIdentity } from '../client-identity.js';
import type { AlertsConfig } from '../config.js';
import { AlertEvaluator } from '../jobs/alert-evaluator.js';
import { createMailer } from '../jobs/mailer.js';
import { OutboxWorker } from '../jobs/outbox-worker.js';
import type { Scheduler } from '../jobs/scheduler.js';
import type { AlertRouteOptions } from '../routes/alerts.js';
import type { MeSettingsRouteOptions } from '../routes/me-settings.js';
import type { MethodChangeRouteOptions } from '../routes/method-changes.js';
import type { NoteRouteOptions } from '../routes/notes.js';
import { CountryNotes } from '../services/notes/country-notes.js';
import { referenceIsoSet } from '../services/reference/reference-countries.js';
import type { WatchlistRouteOptions } from '../routes/watchlists.js';
import { MethodChanges } from '../services/batches/method-changes.js';
import { AlertInbox } from '../services/alerts/alert-inbox.js';
import { RuleBacktest } from '../services/alerts/backtest.js';
import { BacktestRequests } from '../services/alerts/backtest-request.js';
import { ensureDemoWatchlist } from '../services/alerts/demo-watchlist.js';
import { DeliveryLogView } from '../services/alerts/delivery-log.js';
import { WatchlistService, type Viewer } from '../services/alerts/watchlists.js';
import type { HistoryStore } from '../store/history-store.js';
import { principalOf } from '../principal.js';
import { DailyDigests } from '../services/alerts/daily-digest.js';
import { PersonSettingsService } from '../services/alerts/person-settings.js';
import { selectWeightVersions } from '../store/team-index.js';

export interface Alerts {
  evaluator: AlertEvaluator;
  /** A new outbox worker for one term of leadership, its claims fenced by that term's lease. */
  newOutbox(fence: SQL | null, isLeader: () => boolean): OutboxWorker;
  /** Makes the demo's sample watchlist (once) and its inbox; resolves to the alerts added. */
  demoWatchlist(): Promise<number>;
  /** What the watchlist, settings and inbox routes answer with; the root registers them. */
  readonly routes: {
    watchlists: WatchlistRouteOptions;
    meSettings: MeSettingsRouteOptions;
    alerts: AlertRouteOptions;
    methodChanges: MethodChangeRouteOptions;
    notes: NoteRouteOptions;
  };
  /** The team's notes on a country as of a time, as spreadsheet lines (issue 31). */
  notesAt(iso: string, at: Date | null): Promise<string[]>;
  /** Who asks: whose personal lists and read state a request acts on. */
  viewerOf(request: FastifyRequest): Viewer;
  /** The asking person's saved language (issue 34: exports' headers); null: none. */
  settingLanguageOf(request: FastifyRequest): Promise<string | null>;
  /** Reads the numbers backtests use in the background, so the first backtest is quick. */
  warmBacktests(): void;
  /** Stops that reading and closes the mailer (after the outbox stopped). */
  close(): void;
}

function countryNotes(db: HistoryStore['db'], now: () => number): CountryNotes {
  const known = referenceIsoSet();
  return new CountryNotes(db, { now, knownIso: (iso) => known.has(iso) });
}

/**
 * Watchlists and alerts (issue 8), their parts built on the store the composition root opened:
 * the evaluator, the outbox worker for webhooks and e-mail (one per term of leadership), the
 * demo's sample list, the routes. The batch pipeline (jobs/pipeline.ts) runs them.
 */
export function composeAlerts(
  settings: AlertsConfig,
  parts: {
    store: HistoryStore;
    /** People sign in (OIDC) or a proxy names them: personal lists exist. */
    knowsUsers: boolean;
    /** A backtest's turn under its client's budget (the history's limiter, issue 29). */
    admit: WatchlistRouteOptions['admit'];
    now: () => number;
    scheduler: Scheduler;
    logger: FastifyBaseLogger;
    /** Who asks: the SSO user only on connections from TRUSTED_PROXY_ADDRESSES. */
    identity: ClientIdentity;
    /** Deliveries were queued (the pipeline's "queued" step). */
    queued: () => void;
  },
): Alerts {
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
    knowsUsers: parts.knowsUsers,
    onQueued: parts.queued,
  });

  const personSettings = new PersonSettingsService(db, now);
  const backtest = new RuleBacktest(db);
  const notes = countryNotes(db, now);
  return {
    evaluator,
    notesAt: (iso, at) => notes.lines(iso, at),
    viewerOf,
    settingLanguageOf: (request) => personSettings.languageOf(viewerOf(request)),
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
    routes: {
      watchlists: {
        watchlists,
        backtests: new BacktestRequests(
          backtest,
          watchlists,
          // Numbers change with batches; breaking events with the archive: either is a new revision.
          () => parts.store.batchRevision + parts.store.eventRevision,
          async () => (await selectWeightVersions(db, 1)).at(-1)?.version ?? 0,
        ),
        admit: parts.admit,
        deliveryLog: new DeliveryLogView(db),
        viewerOf,
      },
      meSettings: {
        settings: personSettings,
        ownerOf: (request) => ({
          subject: viewerOf(request),
          email: request.principal?.email ?? null,
        }),
      },
      alerts: {
        inbox: new AlertInbox(db, settings.linkBase, now),
        viewerOf,
        actorOf: (request) => ({ name: principalOf(request).name, subject: viewerOf(request) }),
      },
      methodChanges: {
        methodChanges: new MethodChanges(parts.store, {
          now,
          releaseHeld: (batchId) => evaluator.releaseHeld(batchId),
        }),
      },
      // Notes sit with the team's other writings (lists, acknowledgements): same roles, store.
      notes: { notes },
    },
    warmBacktests: () => void backtest.warm(),
    close: () => {
      backtest.stop();
      mailer?.close();
    },
  };
}
