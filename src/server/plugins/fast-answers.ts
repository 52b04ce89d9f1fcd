import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { FastAnswers, SecurityHook } from '../services/rendering/fast-answers.js';

/**
 * Puts `fast` in front of Fastify's own request listener on the app's server, when the hot path
 * may skip the hooks (see `FastAnswers`). Call after the security plugin and access are
 * installed. `app.inject` never reaches it: it calls Fastify's handler directly.
 */
export function installFastAnswers(
  app: FastifyInstance,
  fast: FastAnswers,
  security: SecurityHook,
  accessConfigured: boolean,
): void {
  const verbose = app.log.level === 'debug' || app.log.level === 'trace';
  const listeners = app.server.listeners('request') as Array<
    (req: IncomingMessage, res: ServerResponse) => void
  >;
  const [fastify] = listeners;
  if (accessConfigured || verbose || listeners.length !== 1 || fastify === undefined) return;
  app.server.removeListener('request', fastify);
  app.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!fast.answer(req, res)) fastify(req, res);
  });
  app.addHook('preClose', (done) => {
    fast.closing();
    done();
  });
  fast.enable(security);
}
