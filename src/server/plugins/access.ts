import { createHash, timingSafeEqual } from 'node:crypto';
import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ClientIdentity } from '../client-identity.js';
import type { AppConfig } from '../config.js';
import { crossSiteRefusal } from './cross-site.js';
import { sendError } from '../reply.js';
import { loginPage } from './login-page.js';
import { routedPath } from './routed-path.js';
import { GuessThrottle, Sessions, type SessionStore } from './sessions.js';

const SESSION_COOKIE = 'grd_session';
const SESSION_SECONDS = 12 * 60 * 60;
/** Wrong tokens one client address may send in a minute before it must wait. */
const GUESSES_PER_MINUTE = 10;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Answered without sign-in (the probes, the sign-in form): set on the route itself, so the
     * decision follows the route the router matched, never how the path was spelt.
     */
    signInFree?: boolean;
  }
}
const signInFree = { config: { signInFree: true } };

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** Equal-length digests compared in constant time, so timing reveals nothing about the token. */
function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

function bearer(request: FastifyRequest): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  return match?.[1] ?? null;
}

/**
 * Access control when the operator configured one: DASHBOARD_TOKEN (a bearer token for scripts,
 * or the sign-in page whose session cookie is HttpOnly, SameSite=Strict and revoked on sign-out)
 * and/or TRUSTED_PROXY_AUTH_HEADER (an SSO proxy in front vouches for each request, believed
 * only from TRUSTED_PROXY_ADDRESSES). Either passes. Wrong tokens are throttled per address.
 */
export async function installAccess(
  app: FastifyInstance,
  config: AppConfig,
  identity: ClientIdentity,
  now: () => number,
  /** Replicas share sessions through PostgreSQL; one process keeps them in memory. */
  sharedSessions?: (lifetimeMs: number) => SessionStore,
): Promise<void> {
  const token = config.access.dashboardToken?.reveal() ?? null;
  const proxyHeader = config.access.trustedProxyAuthHeader;
  if (token === null && proxyHeader === null) return;

  await app.register(cookie);
  const sessions =
    sharedSessions?.(SESSION_SECONDS * 1000) ?? new Sessions(SESSION_SECONDS * 1000, now);
  const guesses = new GuessThrottle(GUESSES_PER_MINUTE, now);

  /** True, false, or the wait in ms when this address has guessed wrong too often. */
  const check = (request: FastifyRequest): boolean | number | Promise<boolean> => {
    if (identity.vouchedUser(request) !== null) return true;
    if (token === null) return false;
    const given = bearer(request);
    if (given === null) return sessions.valid(request.cookies[SESSION_COOKIE]);
    const wait = guesses.blockedFor(request.ip);
    if (wait > 0) return wait;
    if (sameSecret(given, token)) return true;
    guesses.fail(request.ip);
    return false;
  };

  app.addHook('onRequest', async (request, reply) => {
    // The matched route's own setting (a 404 or 405 has none), whatever the path's spelling.
    if (request.routeOptions.config.signInFree === true) return;
    const verdict = await check(request);
    if (verdict === true) return;
    if (typeof verdict === 'number') {
      return sendError(
        reply,
        429,
        'Too many wrong tokens from this address; wait a minute',
        verdict,
      );
    }
    return deny(request, reply, token !== null);
  });

  if (token === null) return;
  const cookieOptions = {
    httpOnly: true,
    sameSite: 'strict' as const,
    path: '/',
    secure: config.behindTls,
  };
  // The sign-in page and its form exist only with a token (proxy mode has no /login).
  app.get('/login', signInFree, async (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(loginPage(false)),
  );
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_request, body, done) => done(null, new URLSearchParams(body as string)),
  );
  app.post('/login', signInFree, async (request, reply) => {
    // A form post from our own pages only, so another site cannot sign someone in or out.
    if (crossSiteRefusal(request, config.behindTls) !== null) {
      return sendError(reply, 403, 'Sign-in must come from this site');
    }
    const wait = guesses.blockedFor(request.ip);
    if (wait > 0) {
      return sendError(reply, 429, 'Too many wrong tokens from this address; wait a minute', wait);
    }
    const form = request.body instanceof URLSearchParams ? request.body : null;
    const given = form?.get('token') ?? '';
    if (!sameSecret(given, token)) {
      guesses.fail(request.ip);
      return reply.code(401).type('text/html; charset=utf-8').send(loginPage(true));
    }
    return reply
      .setCookie(SESSION_COOKIE, await sessions.open(), {
        ...cookieOptions,
        maxAge: SESSION_SECONDS,
      })
      .redirect('/', 303);
  });
  app.post('/logout', signInFree, async (request, reply) => {
    if (crossSiteRefusal(request, config.behindTls) !== null) {
      return sendError(reply, 403, 'Sign-out must come from this site');
    }
    await sessions.revoke(request.cookies[SESSION_COOKIE]);
    return reply.clearCookie(SESSION_COOKIE, cookieOptions).redirect('/login', 303);
  });
  // Signing out changes state: a link or a prefetch must not do it, and must not get the SPA.
  app.route({
    method: ['GET', 'HEAD'],
    url: '/logout',
    ...signInFree,
    handler: async (_request, reply) =>
      sendError(reply.header('allow', 'POST'), 405, 'Sign out with POST /logout (a form button)'),
  });
}

/** A browser asking for a page is sent to the sign-in form; anything else gets a 401. */
function deny(request: FastifyRequest, reply: FastifyReply, hasLoginPage: boolean): FastifyReply {
  const wantsPage =
    request.method === 'GET' &&
    !routedPath(request).startsWith('/api/') &&
    (request.headers.accept ?? '').includes('text/html');
  if (wantsPage && hasLoginPage) return reply.redirect('/login', 303);
  if (hasLoginPage) reply.header('www-authenticate', 'Bearer realm="Global Risk Dashboard"');
  return sendError(
    reply,
    401,
    hasLoginPage
      ? 'Sign-in required: send Authorization: Bearer <dashboard token>, or sign in at /login'
      : 'Sign-in required: open the dashboard through your organisation’s sign-in proxy',
  );
}
