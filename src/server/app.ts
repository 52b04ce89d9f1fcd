import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { AppConfig } from './config.js';
import type { Secret } from './secret.js';

export interface ResolvedUpstream {
  mode: 'demo' | 'live';
  baseUrl: string;
  apiKey: Secret;
}

export interface AppDeps {
  upstream: ResolvedUpstream;
  /** Built SPA (dist/client) to serve; null/undefined serves the API only. */
  clientDir?: string | null;
  /** Injectable clock for freshness and quota logic in tests. */
  now?: () => number;
  logger?: Logger;
}

/** Skeleton: replaced by the full caching proxy. */
export async function buildApp(config: AppConfig, deps: AppDeps): Promise<FastifyInstance> {
  const logger: FastifyBaseLogger =
    deps.logger ?? (await import('pino')).pino({ level: config.logLevel });
  const app = Fastify({ loggerInstance: logger });
  app.get('/healthz', async () => ({ ok: true }));
  return app;
}
