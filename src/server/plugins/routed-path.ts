import type { FastifyRequest } from 'fastify';

/**
 * The path as the router matched it: percent-decoded the way find-my-way decodes it (decodeURI:
 * `/api/%77atchlists` is `/api/watchlists`; encoded `/ ? #` stay encoded), without the query.
 * Any decision on a path uses this, never `request.url`, so spelling a path differently cannot
 * reach a route while dodging a check.
 */
export function routedPath(request: FastifyRequest): string {
  const raw = request.url;
  const end = raw.search(/[?#]/);
  const path = end === -1 ? raw : raw.slice(0, end);
  try {
    return decodeURI(path);
  } catch {
    // The router refuses such a URL with a 400 before any route runs.
    return path;
  }
}
