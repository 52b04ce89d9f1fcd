import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { ApiProblem } from '../refusals.js';
import type { Logger } from 'pino';
import { ClientIdentity } from '../client-identity.js';
import type { AppConfig } from '../config.js';
import { timerScheduler, type Scheduler } from '../jobs/scheduler.js';
import { createLogger } from '../logger.js';
import { SoloLeadership } from '../replicas/leadership.js';
import { alertRoutes } from '../routes/alerts.js';
import { auditRoutes } from '../routes/audit.js';
import { batchRoutes } from '../routes/batches.js';
import { firstFrameRoutes } from '../routes/first-frame.js';
import { countriesRoutes } from '../routes/countries.js';
import { countryRoutes } from '../routes/country.js';
import { embedRoutes } from '../routes/embeds.js';
import { exportRoutes } from '../routes/export.js';
import { feedRoutes } from '../routes/feeds.js';
import { historyRoutes, type HistoryRouteOptions } from '../routes/history.js';
import { hotspotRoutes } from '../routes/hotspots.js';
import { identityRoutes } from '../routes/identity.js';
import { meSettingsRoutes } from '../routes/me-settings.js';
import { methodChangeRoutes } from '../routes/method-changes.js';
import { noteRoutes } from '../routes/notes.js';
import { openapiRoutes } from '../routes/openapi.js';
import { referenceRoutes } from '../routes/reference.js';
import { siteRoutes } from '../routes/sites.js';
import { spreadsheetRoutes } from '../routes/spreadsheet.js';
import { teamIndexRoutes } from '../routes/team-index.js';
import { batchCheckRoutes, opsRoutes, statusRoutes } from '../routes/status.js';
import { watchlistRoutes } from '../routes/watchlists.js';
import type { HistoryStore } from '../store/history-store.js';
import { composeAlerts } from './alerts.js';
import { closeInOrder, handlesOf, type Bff } from './bff.js';
import { composeData, dataRouteOptions } from './data.js';
import { composeHistory } from './history.js';
import { composeIdentity, identityRouteOptions } from './identity.js';
import { opsOptions } from './ops.js';
import { composePipeline, QueuedNotice } from './pipeline.js';
import { installPlugins } from './plugins.js';
import { replicasFor } from './replicas.js';
import { createServer } from './server.js';
import { composeReach, type Reach } from './reach.js';
import { composeSites } from './sites.js';
import { composeTeam, type Team } from './team.js';
import type { Alerts } from './alerts.js';
import type { History } from './history.js';
import type { Sites } from './sites.js';
import type { DataRouteOptions } from '../routes/respond.js';
import { openStore } from './store.js';
import { ReadinessHolds } from '../work/readiness.js';
import type { ResolvedUpstream } from './upstream.js';

export type { Bff } from './bff.js';
export type { ResolvedUpstream } from './upstream.js';

export interface AppDeps {
  upstream: ResolvedUpstream;
  /** Built SPA (dist/client) to serve; null/undefined serves the API only. */
  clientDir?: string | null;
  /** Injectable clock for freshness and quota logic in tests. */
  now?: () => number;
  /** Tests pass a pino writing to a buffer (the key-leak test searches it). */
  logger?: Logger;
  /** An open store to use (the caller closes it); else the root opens one from the settings. */
  historyStore?: HistoryStore;
  /** When the batch watch wakes; tests drive it with their clock. */
  scheduler?: Scheduler;
}

/** A route family and the options it is registered with (null: its part is off). */
type RouteFamily = [FastifyPluginAsync<never>, unknown] | null;

/**
 * The composition root, read top to bottom: the server, the store (opened once, here), the
 * replicas, the parts (each given its own slice of the settings), the batch pipeline, the
 * plugins, every route family in one list, and the order things close in. Never listens.
 */
export async function buildApp(config: AppConfig, deps: AppDeps): Promise<Bff> {
  const now = deps.now ?? Date.now;
  const scheduler = deps.scheduler ?? timerScheduler(now);
  const access = config.access;
  const identity = ClientIdentity.of(access);
  const app = await createServer(deps.logger ?? createLogger(config.server.logLevel), identity);
  const logger = app.log;
  const clientKey = identity.clientKey.bind(identity);

  const store = deps.historyStore ?? (await openStore(config));
  const replicas = replicasFor(config, { store, now, logger });
  const leadership = replicas?.membership ?? new SoloLeadership();

  const data = composeData(config.data, {
    upstream: deps.upstream,
    replicas,
    dataDir: config.server.dataDir,
    now,
    logger,
  });
  const queued = new QueuedNotice();
  const historySettings = { ...config.history, policy: config.data.freshness };
  const history = store
    ? composeHistory(historySettings, {
        ...data,
        store,
        now,
        scheduler,
        logger,
        onArchived: replicas?.announceArchived,
        clientKey,
      })
    : null;
  const knowsUsers = access.trustedProxyAuthHeader !== null || (access.oidc ?? null) !== null;
  const alertParts = { now, scheduler, logger, identity, knowsUsers, queued: queued.fire };
  const admit = history?.admit;
  const alerts =
    store && history ? composeAlerts(config.alerts, { ...alertParts, store, admit }) : null;
  const sites = store && history ? composeSites(config.alerts, { ...alertParts, store }) : null;
  // Start-up work the pages wait for: /readyz says "not ready" until it is done (issue 29).
  const holds = new ReadinessHolds();
  if (sites) app.addHook('onListen', async () => sites.placeOnceListening(holds));
  const people = composeIdentity(access, { store, replicas, now, logger });
  const team = store ? composeTeam({ store, audit: people.audit, now, scheduler, logger }) : null;

  const onStore = store && history && alerts && sites ? { store, history, alerts, sites } : null;
  const pipelineParts = { ...data, ...onStore, leadership, replicas, queued };
  const batchSteps = onStore ? await composePipeline(app, { ...pipelineParts, ...onStore }) : null;

  const clientDir = deps.clientDir ?? null;
  const fast = data.fast;
  const signIn = await installPlugins(app, config, { identity, people, now, clientDir, fast });

  const dataOptions = dataRouteOptions(data, history?.asOf ?? null, clientKey, team?.view);
  const ops = opsOptions(deps.upstream, data, {
    holds,
    tiles: config.look.tiles,
    policy: config.data.freshness,
    now,
    history,
    replicas,
    historyStore: store,
  });
  const reach = history ? composeReach(config.alerts, { history, now }) : null;
  const families = {
    dataOptions,
    ops,
    history,
    alerts,
    sites,
    team,
    people,
    signIn,
    now,
    reach,
    clientDir,
  };
  for (const family of routeFamilies(families)) {
    if (family) await app.register(family[0], family[1] as never);
  }

  const closeAll = closeInOrder({ data, leadership, replicas, batchSteps, alerts, history });
  team?.expiry.start();
  team?.scoresFill.start();
  app.addHook('onClose', async () => {
    await team?.expiry.stop();
    await team?.scoresFill.stop();
    await closeAll();
    if (!deps.historyStore) await store?.close();
  });
  const parts = { holds, cache: data.cache, batchSteps, history, alerts, sites, team };
  return handlesOf(app, store, parts);
}

/** Every route family, in the one list (null: its part is off). */
function routeFamilies(parts: {
  dataOptions: DataRouteOptions;
  ops: ReturnType<typeof opsOptions>;
  history: History | null;
  alerts: Alerts | null;
  sites: Sites | null;
  team: Team | null;
  people: ReturnType<typeof composeIdentity>;
  signIn: Awaited<ReturnType<typeof installPlugins>>;
  now: () => number;
  reach: Reach | null;
  clientDir: string | null;
}): RouteFamily[] {
  const { dataOptions, ops, history, alerts, sites, team, people, signIn, now, reach } = parts;
  return [
    [hotspotRoutes, dataOptions],
    [countryRoutes, dataOptions],
    [exportRoutes, dataOptions],
    [countriesRoutes, dataOptions],
    [
      spreadsheetRoutes,
      {
        ...dataOptions,
        notesAt: alerts?.notesAt ?? null,
        settingLanguageOf: alerts?.settingLanguageOf ?? null,
      },
    ],
    [referenceRoutes, {}],
    [statusRoutes, ops],
    [batchCheckRoutes, ops],
    [opsRoutes, ops],
    history && [
      historyRoutes,
      {
        ...history.routes.history,
        team: team?.view,
        watchlistCountries: watchlistCountriesOf(alerts),
        settingLanguageOf: alerts?.settingLanguageOf ?? null,
      },
    ],
    history && [batchRoutes, history.routes.batches],
    alerts && [watchlistRoutes, alerts.routes.watchlists],
    alerts && [meSettingsRoutes, alerts.routes.meSettings],
    alerts && [alertRoutes, alerts.routes.alerts],
    alerts && [methodChangeRoutes, alerts.routes.methodChanges],
    alerts && [noteRoutes, alerts.routes.notes],
    sites && history && alerts
      ? [
          siteRoutes,
          {
            ...sites.routes({ ...alerts, guardFor: history.guardFor, admit: history.admit }),
            team: team?.view,
            settingLanguageOf: alerts.settingLanguageOf,
          },
        ]
      : null,
    team && [teamIndexRoutes, team.routes],
    [identityRoutes, identityRouteOptions(people, signIn)],
    [
      auditRoutes,
      { audit: people.audit, now, settingLanguageOf: alerts?.settingLanguageOf ?? null },
    ],
    reach && [feedRoutes, reach.feeds],
    reach && [embedRoutes, reach.embeds],
    [openapiRoutes, {}],
    // The pages with a first frame rendered in (issue 32); the other pages are the SPA's file.
    parts.clientDir === null
      ? null
      : [
          firstFrameRoutes,
          {
            ...dataOptions,
            clientDir: parts.clientDir,
            status: ops.status,
            now,
            ...frameHistory(history?.routes.history ?? null),
          },
        ],
  ];
}

/**
 * What the first frames read of the store: why a country moved, and the overview strip's moves
 * (`/api/changes` since the previous recorded batch, as the route asks it). Null without one.
 */
function frameHistory(history: HistoryRouteOptions | null) {
  return {
    explanations: history?.explanations ?? null,
    recordedMovesJson: history
      ? (request: FastifyRequest) =>
          history.answers.changesJson({ kind: 'previous' }, 'previous', history.guardFor(request))
      : null,
  };
}

/** The event search's `watchlist=`: the list's countries as the asker may see it, else null. */
function watchlistCountriesOf(alerts: Alerts | null) {
  if (!alerts) return undefined;
  const { watchlists } = alerts.routes.watchlists;
  return async (request: FastifyRequest, id: string): Promise<string[] | null> => {
    try {
      return (await watchlists.row(id, alerts.viewerOf(request))).countries;
    } catch (error) {
      if (error instanceof ApiProblem && error.status === 404) return null;
      throw error;
    }
  };
}
