import type { FastifyRequest } from 'fastify';

/** A token in `Authorization: Bearer` or `?token=` (for tools that cannot send a header). */
export function presentedToken(request: FastifyRequest): string | null {
  return bearerOf(request) ?? queryTokenOf(request);
}

/**
 * The feed token a request carries, wherever: a tool may send a sign-in header of its own beside
 * a feed URL, and any other credential is no feed token (a feed then asks for one, as it does of
 * everyone, whatever sign-in is configured).
 */
export function presentedFeedToken(request: FastifyRequest, prefix: string): string | null {
  const candidates = [queryTokenOf(request), bearerOf(request)];
  return candidates.find((token) => token?.startsWith(prefix)) ?? null;
}

function bearerOf(request: FastifyRequest): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  return match?.[1] ?? null;
}

/** `?token=` as the raw URL spells it: the route's own query parsing has not run yet. */
function queryTokenOf(request: FastifyRequest): string | null {
  const query = request.url.indexOf('?');
  if (query === -1) return null;
  return new URLSearchParams(request.url.slice(query + 1)).get('token');
}
