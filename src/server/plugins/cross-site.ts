import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendError } from '../reply.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The request's own origin as the browser would write it (scheme from the TLS setting). */
function ownOrigin(request: FastifyRequest, behindTls: boolean): string | null {
  const host = request.headers.host;
  if (!host) return null;
  return `${behindTls || request.protocol === 'https' ? 'https' : 'http'}://${host}`;
}

/** Through URL on both sides, so case and a default port written out (`:80`) compare equal. */
function sameOriginText(a: string, b: string | null): boolean {
  if (b === null) return false;
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}

/**
 * The one same-origin check: the refusal of a request a browser sent from another site, or
 * null. Browsers say where a request comes from (`Sec-Fetch-Site`, `Origin`); clients that send
 * neither (curl, scripts with the bearer token) pass.
 */
export function crossSiteRefusal(request: FastifyRequest, behindTls: boolean): string | null {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== 'same-origin' && site !== 'none') {
    return `Refused: a ${request.method} from another site (Sec-Fetch-Site: ${site.slice(0, 20)}) may not change anything here`;
  }
  const origin = request.headers.origin;
  if (typeof origin === 'string' && origin !== '') {
    if (!sameOriginText(origin, ownOrigin(request, behindTls))) {
      return 'Refused: the request comes from another origin and may not change anything here';
    }
  }
  return null;
}

/**
 * Refuses state-changing requests that a browser sends on another site's behalf: with the
 * session cookie (SameSite=Strict already) or an SSO proxy's header, a forged form post or fetch
 * would otherwise act as the signed-in person.
 */
export function installCrossSiteGuard(app: FastifyInstance, behindTls: boolean): void {
  // A callback hook: every request passes it, and a read (every cached answer) should pay one
  // set lookup for it, not a promise.
  app.addHook('onRequest', (request, reply, done) => {
    // Decided by method alone, on every path: however a path is spelt (`/api/%77atchlists`),
    // no route that changes anything can be reached from another site.
    if (SAFE_METHODS.has(request.method)) return done();
    const refusal = crossSiteRefusal(request, behindTls);
    if (refusal === null) return done();
    void sendError(reply, 403, refusal);
  });
}
