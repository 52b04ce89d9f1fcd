import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { AlertsConfig } from '../config.js';
import { SiteAlertEvaluator } from '../jobs/site-alert-evaluator.js';
import { siteRoutes, type SiteRouteOptions } from '../routes/sites.js';
import { demoSiteRows } from '../services/sites/demo-sites.js';
import { ExposureService } from '../services/sites/exposure.js';
import { SiteAlertDelivery } from '../services/sites/site-alert-delivery.js';
import { SiteService } from '../services/sites/site-service.js';
import type { HistoryStore } from '../store/history-store.js';

type RouteParts = Pick<SiteRouteOptions, 'guardFor' | 'admit' | 'viewerOf'>;

export interface Sites {
  sites: SiteService;
  exposure: ExposureService;
  /** The site rule's step of the batch pipeline. */
  siteAlerts: SiteAlertEvaluator;
  /** Loads the country shapes sites are placed on (once; ~0.8 s of the thread): at start-up. */
  warmPlacer(): void;
  /** Demo mode: the fictional company's sites, only when there are no sites yet; the count added. */
  demoSites(): Promise<number>;
  /**
   * The routes, `/api/exposure` under the store-query guard and history-question budget; who
   * asks (`viewerOf`) for their own unread count.
   */
  registerRoutes(app: FastifyInstance, parts: RouteParts): Promise<void>;
}

/**
 * Our own sites and the exposure of them (issue 20), built on the store the composition root
 * opened: the site service (placement, import, edits), the exposure answers, the site rule's
 * evaluator and where its alerts go ("Our sites"), the routes.
 */
export function composeSites(
  store: HistoryStore,
  now: () => number,
  alerts: {
    settings: AlertsConfig | undefined;
    logger: FastifyBaseLogger;
    /** Deliveries were queued (the pipeline's "queued" step). */
    queued: () => void;
  },
): Sites {
  const sites = new SiteService({ store });
  const exposure = new ExposureService(sites, store);
  const settings = alerts.settings;
  const siteAlerts = new SiteAlertEvaluator({
    db: store.db,
    now,
    logger: alerts.logger,
    linkBase: settings?.linkBase ?? null,
    emailEnabled: (settings?.email ?? null) !== null,
    onQueued: alerts.queued,
  });
  const delivery = new SiteAlertDelivery({
    db: store.db,
    allowPrivate: settings?.webhookAllowPrivate ?? false,
    onQueued: alerts.queued,
  });
  return {
    sites,
    exposure,
    siteAlerts,
    warmPlacer: () => sites.placer.warm(),
    demoSites: async () => {
      if ((await sites.all()).rows.length > 0) return 0;
      // Matched by ref like any import: two processes seeding at once cannot double a site.
      const answer = await sites.import(demoSiteRows(now()), false);
      return answer.created.length;
    },
    registerRoutes: async (app, parts) => {
      await app.register(siteRoutes, { sites, exposure, delivery, ...parts });
    },
  };
}
