import type { FastifyInstance } from 'fastify';
import { siteRoutes } from '../routes/sites.js';
import { ExposureService } from '../services/sites/exposure.js';
import { SiteService } from '../services/sites/site-service.js';
import type { HistoryStore } from '../store/history-store.js';

export interface Sites {
  sites: SiteService;
  exposure: ExposureService;
  registerRoutes(app: FastifyInstance): Promise<void>;
}

/**
 * Our own sites and the exposure of them (issue 20), built on the store the composition root
 * opened: the site service (placement, import, edits), the exposure answers, the routes.
 */
export function composeSites(store: HistoryStore): Sites {
  const sites = new SiteService({ store });
  const exposure = new ExposureService(sites, store);
  return {
    sites,
    exposure,
    registerRoutes: async (app) => {
      await app.register(siteRoutes, { sites, exposure });
    },
  };
}
