import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { PersonSettingsService, SettingsOwner } from '../services/alerts/person-settings.js';
import { noQuery } from './params.js';
import { zodRoute } from './route-schema.js';

export interface MeSettingsRouteOptions {
  settings: PersonSettingsService;
  ownerOf: (request: FastifyRequest) => SettingsOwner;
}

/** `/api/me/settings`: the asking person's own delivery settings (issue 21). */
export async function meSettingsRoutes(
  app: FastifyInstance,
  opts: MeSettingsRouteOptions,
): Promise<void> {
  app.get('/api/me/settings', zodRoute({ querystring: noQuery }), async (request, reply) => {
    const settings = await opts.settings.get(opts.ownerOf(request));
    reply.header('cache-control', 'no-store').header('etag', `"${settings.version}"`);
    return { ok: true, settings };
  });

  // Everyone's own settings are their own business: a viewer may change them.
  app.put(
    '/api/me/settings',
    { ...zodRoute({ querystring: noQuery }), config: { role: 'viewer' } },
    async (request, reply) => {
      const settings = await opts.settings.put(
        opts.ownerOf(request),
        request.body,
        request.headers['if-match'],
      );
      reply.header('cache-control', 'no-store').header('etag', `"${settings.version}"`);
      return { ok: true, settings };
    },
  );
}
