import type { FastifyInstance } from 'fastify';
import { presentedToken } from '../services/feeds/presented-token.js';
import { sendError } from '../reply.js';
import { isWrite } from './roles.js';

/** A feed token's and an embed token's first characters (services/feeds, services/embeds). */
const FEED_TOKEN = 'grf_';
const EMBED_TOKEN = 'gre_';

/**
 * A feed token reads its feeds and nothing else; an embed token shows its view and nothing else
 * (issue 34). Either one presented anywhere else (a header or `?token=`) is refused with a 403
 * naming why, before sign-in is checked: a tool handed a feed URL must not find it opens the API.
 */
export function installReachTokenGuard(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    const token = presentedToken(request);
    if (token === null || !(token.startsWith(FEED_TOKEN) || token.startsWith(EMBED_TOKEN)))
      return done();
    const config = request.routeOptions.config;
    const feed = token.startsWith(FEED_TOKEN);
    if (feed && config.feed === true && !isWrite(request.method)) return done();
    if (isWrite(request.method)) {
      void sendError(
        reply,
        403,
        `A${feed ? ' feed' : 'n embed'} token only reads: it may not change anything`,
      );
      return;
    }
    void sendError(
      reply,
      403,
      feed
        ? 'A feed token reads only its feeds (GET /api/feeds/<name>.csv or .json), not this'
        : 'An embed token shows only its embedded view (/embed/<token>), not this',
    );
  });
}
