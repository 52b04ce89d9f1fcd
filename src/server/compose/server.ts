import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { ClientIdentity } from '../client-identity.js';
import { AccessLog, LazyChildLogger } from '../logger.js';
import { clientError, frameworkError } from '../plugins/errors.js';
import { collectRoutes } from '../plugins/roles.js';
import { describeApi } from '../routes/openapi.js';
import { parseQuerystring } from '../routes/route-schema.js';

/**
 * The HTTP server, before any plugin or route: Fastify with our logger, our query-string
 * parser and our error shape for what Node's parser and Fastify's router refuse; the OpenAPI
 * document and the list of routes and their roles are collected from routes as they register.
 */
export async function createServer(
  logger: FastifyBaseLogger,
  identity: ClientIdentity,
): Promise<FastifyInstance> {
  const app = Fastify({
    // X-Forwarded-For names the client only on connections from our own proxies.
    trustProxy: (address: string) => identity.isProxy(address),
    loggerInstance: logger,
    // Long enough that an overlong ISO code reaches validation (and gets a 400, not a 404).
    // Undecodable query values are marked for a 400, never kept as their raw text.
    routerOptions: { maxParamLength: 1000, querystringParser: parseQuerystring },
    bodyLimit: 16 * 1024,
    frameworkErrors: frameworkError,
    clientErrorHandler: clientError,
    logController: new AccessLog(),
    childLoggerFactory: (parent, bindings, options) =>
      new LazyChildLogger(parent, bindings, options) as unknown as FastifyBaseLogger,
  });
  await describeApi(app);
  collectRoutes(app);
  return app;
}
