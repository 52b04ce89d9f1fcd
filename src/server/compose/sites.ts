import type { FastifyInstance } from 'fastify';
import { siteRoutes } from '../routes/sites.js';
import { demoSiteRows } from '../services/sites/demo-sites.js';
import { ExposureService } from '../services/sites/exposure.js';
import { jsonRows } from '../services/sites/import-rows.js';
import { SiteService } from '../services/sites/site-service.js';
import type { HistoryStore } from '../store/history-store.js';

export interface Sites {
  sites: SiteService;
  exposure: ExposureService;
  /** Demo mode: the fictional company's sites, only when there are no sites yet; the count added. */
  demoSites(): Promise<number>;
  registerRoutes(app: FastifyInstance): Promise<void>;
}

/**
 * Our own sites and the exposure of them (issue 20), built on the store the composition root
 * opened: the site service (placement, import, edits), the exposure answers, the routes.
 */
export function composeSites(store: HistoryStore, now: () => number): Sites {
  const sites = new SiteService({ store });
  const exposure = new ExposureService(sites, store);
  return {
    sites,
    exposure,
    demoSites: async () => {
      if ((await sites.all()).rows.length > 0) return 0;
      // Matched by ref like any import: two processes seeding at once cannot double a site.
      const answer = await sites.import(jsonRows(demoSiteRows(now())), false);
      return answer.created.length;
    },
    registerRoutes: async (app) => {
      await app.register(siteRoutes, { sites, exposure });
    },
  };
}
