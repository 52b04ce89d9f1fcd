import type { FastifyRequest } from 'fastify';

/** A token in `Authorization: Bearer` or `?token=` (for tools that cannot send a header). */
export function presentedToken(request: FastifyRequest): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  if (match?.[1]) return match[1];
  // `?token=` as the raw URL spells it: the route's own query parsing has not run yet.
  const query = request.url.indexOf('?');
  if (query === -1) return null;
  return new URLSearchParams(request.url.slice(query + 1)).get('token');
}
