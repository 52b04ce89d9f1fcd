import type { FastifyBaseLogger } from 'fastify';
import type { AlertsConfig } from '../config.js';
import { SiteAlertEvaluator } from '../jobs/site-alert-evaluator.js';
import type { SiteRouteOptions } from '../routes/sites.js';
import { demoSiteRows } from '../services/sites/demo-sites.js';
import { ExposureService } from '../services/sites/exposure.js';
import { SiteAlertDelivery } from '../services/sites/site-alert-delivery.js';
import { SiteService } from '../services/sites/site-service.js';
import type { HistoryStore } from '../store/history-store.js';
import type { ReadinessHolds } from '../work/readiness.js';

type RouteParts = Pick<SiteRouteOptions, 'guardFor' | 'admit' | 'viewerOf'>;

export interface Sites {
  sites: SiteService;
  exposure: ExposureService;
  /** The site rule's step of the batch pipeline. */
  siteAlerts: SiteAlertEvaluator;
  /**
   * Loads the country shapes sites are placed on (once, in pieces between requests) just after
   * the port opens, not inside the first import while others wait; not ready until then.
   */
  placeOnceListening(holds: ReadinessHolds): void;
  /** Demo mode: the fictional company's sites, only when there are no sites yet; the count added. */
  demoSites(): Promise<number>;
  /**
   * What the site routes answer with, given who asks (`viewerOf`, for their own unread count)
   * and the history's store-query guard and question budget (for `/api/exposure`).
   */
  routes(parts: RouteParts): SiteRouteOptions;
}

/**
 * Our own sites and the exposure of them (issue 20), built on the store the composition root
 * opened: the site service (placement, import, edits), the exposure answers, the site rule's
 * evaluator and where its alerts go ("Our sites"), the routes.
 */
export function composeSites(
  settings: AlertsConfig,
  parts: {
    store: HistoryStore;
    now: () => number;
    logger: FastifyBaseLogger;
    /** Deliveries were queued (the pipeline's "queued" step). */
    queued: () => void;
  },
): Sites {
  const { store, now } = parts;
  const sites = new SiteService({ store });
  const exposure = new ExposureService(sites, store);
  const siteAlerts = new SiteAlertEvaluator({
    db: store.db,
    now,
    logger: parts.logger,
    linkBase: settings.linkBase,
    emailEnabled: settings.email !== null,
    onQueued: parts.queued,
  });
  const delivery = new SiteAlertDelivery({
    db: store.db,
    allowPrivate: settings.webhookAllowPrivate,
    onQueued: parts.queued,
  });
  return {
    sites,
    exposure,
    siteAlerts,
    placeOnceListening: (holds) => {
      const loading = sites.placer.warm();
      holds.hold(loading, 'The map sites are placed on is still loading; ready in a second');
    },
    demoSites: async () => {
      if ((await sites.all()).rows.length > 0) return 0;
      // Matched by ref like any import: two processes seeding at once cannot double a site.
      const answer = await sites.import(demoSiteRows(now()), false);
      return answer.created.length;
    },
    routes: (parts) => ({ sites, exposure, delivery, ...parts }),
  };
}
