import { sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * The built SPA. Hashed `/assets/*` are immutable for a year; everything else (index.html, the
 * favicon) is revalidated on each load, so a deploy is picked up at once. Deep links are answered
 * by the not-found handler (see errors.ts), which returns index.html for page routes only.
 * `preCompressed`: the `.br`/`.gz` siblings written by scripts/precompress.mjs at build time go
 * out to clients that accept them (with `Vary: Accept-Encoding`); nothing is compressed per request.
 */
export async function registerSpa(app: FastifyInstance, clientDir: string): Promise<void> {
  const assets = `${sep}assets${sep}`;
  await app.register(fastifyStatic, {
    root: clientDir,
    prefix: '/',
    index: false,
    wildcard: true,
    cacheControl: false,
    dotfiles: 'deny',
    preCompressed: true,
    setHeaders: (reply, filePath) => {
      reply.header(
        'cache-control',
        filePath.includes(assets) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
  // `/` (a directory to the static handler) and `/country/:iso` are answered with their first
  // frame rendered in: routes/first-frame.ts, in the app's list of route families (issue 32).
}
