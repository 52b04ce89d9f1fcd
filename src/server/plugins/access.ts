import { createHash, timingSafeEqual } from 'node:crypto';
import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ClientIdentity } from '../client-identity.js';
import type { AuditLog } from '../services/identity/audit.js';
import type { AccessConfig } from '../config.js';
import type { OidcConfig } from '../config-oidc.js';
import { OidcIdentity } from '../services/identity/oidc-identity.js';
import { OidcKeys } from '../services/identity/oidc-keys.js';
import { crossSiteRefusal } from './cross-site.js';
import { sendError } from '../reply.js';
import { loginPage } from './login-page.js';
import { loginPath, returnPath } from './return-path.js';
import { routedPath } from './routed-path.js';
import type { Principal } from '../principal.js';
import { roleMapper, type RoleOf } from '../principal.js';
import {
  installOidcSignIn,
  registerFormParser,
  signInEvent,
  type OidcSignInOptions,
  type SignInParts,
} from './oidc-sign-in.js';
import type { RoleRecheck } from './oidc-recheck.js';
import { CLEAR_SITE_DATA, GuessThrottle, Sessions, type SessionStore } from './sessions.js';

const SESSION_COOKIE = 'grd_session';
/** A dashboard-token sign-in lasts 12 hours from sign-in, whatever the activity. */
const SESSION_SECONDS = 12 * 60 * 60;
const TOKEN_SESSION = { idleMs: SESSION_SECONDS * 1000, absoluteMs: SESSION_SECONDS * 1000 };
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

/** Checks an API token (`grd_…`) against the store; null when it is unknown, expired or revoked. */
export interface ApiTokenVerifier {
  principalFor(secret: string): Promise<Principal | null>;
}

export interface AccessParts {
  /** Where sessions live (the store); absent keeps them in this process's memory. */
  sessions?: SessionStore;
  /** API tokens an admin made (needs the store). */
  apiTokens?: ApiTokenVerifier;
  /** Where sign-ins, failed sign-ins and sign-outs are recorded (needs the store). */
  audit?: AuditLog;
}

/** What the rest of the app needs from access control (null when none is configured). */
export interface Access {
  sessions: SessionStore;
  /** Where a browser signs out (a form POST), or null. */
  signOutPath: string | null;
}

/** A dashboard-token holder (bearer or sign-in form) is an admin. */
const TOKEN_HOLDER: Principal = {
  name: 'Dashboard token',
  email: null,
  subject: null,
  role: 'admin',
  via: 'dashboard-token',
};

/**
 * Whom the SSO proxy vouches for, with the role its groups header gives, read on every request
 * (a group removed at the proxy's provider counts at once).
 */
function proxyPrincipalOf(
  request: FastifyRequest,
  user: string,
  { groupsHeader, roleOf }: { groupsHeader: string | null; roleOf: RoleOf },
): Principal {
  const groups = groupsHeader === null ? undefined : request.headers[groupsHeader];
  return {
    name: user,
    email: null,
    subject: user,
    // Without a groups header the proxy says only who, not what: people keep what they had
    // before roles (editing), and admin work needs a group mapping or the dashboard token.
    role:
      groupsHeader === null
        ? 'editor'
        : roleOf((typeof groups === 'string' ? groups : '').split(',').map((g) => g.trim())),
    via: 'proxy',
  };
}

/**
 * Access control when the operator configured one: OIDC sign-in (oidc-sign-in.ts),
 * DASHBOARD_TOKEN (a bearer token for scripts, or the sign-in page whose session cookie is
 * HttpOnly, SameSite=Strict and revoked on sign-out), API tokens an admin made, and/or
 * TRUSTED_PROXY_AUTH_HEADER (an SSO proxy in front vouches for each request, believed only from
 * TRUSTED_PROXY_ADDRESSES). Any passes, and says who the request acts for (`request.principal`).
 * Wrong tokens are throttled per address.
 */
export async function installAccess(
  app: FastifyInstance,
  config: AccessConfig,
  identity: ClientIdentity,
  now: () => number,
  parts: AccessParts = {},
): Promise<Access | null> {
  const token = config.dashboardToken?.reveal() ?? null;
  const proxyHeader = config.trustedProxyAuthHeader;
  const oidc = config.oidc ?? null;
  const roles = {
    groupsHeader: config.trustedProxyGroupsHeader ?? null,
    roleOf: roleMapper(config.roles),
  };
  app.decorateRequest('principal', null);
  if (token === null && proxyHeader === null && oidc === null) return null;

  await app.register(cookie);
  const sessions = parts.sessions ?? new Sessions(now);
  const guesses = new GuessThrottle(GUESSES_PER_MINUTE, now);
  // Set when OIDC sign-in is installed below: a session's role is asked of the provider again.
  let recheck: RoleRecheck | null = null;
  const sessionPrincipal = async (id: string | undefined): Promise<Principal | false> => {
    const session = await sessions.find(id);
    if (session === null || id === undefined) return false;
    return (recheck === null ? session.principal : await recheck(id, session)) ?? false;
  };

  /** Who the request acts for, false, or the wait in ms when this address guessed wrong too often. */
  const check = async (request: FastifyRequest): Promise<Principal | false | number> => {
    const user = identity.vouchedUser(request);
    if (user !== null) return proxyPrincipalOf(request, user, roles);
    const given = bearer(request);
    if (given === null) return sessionPrincipal(request.cookies[SESSION_COOKIE]);
    const wait = guesses.blockedFor(request.ip);
    if (wait > 0) return wait;
    if (token !== null && sameSecret(given, token)) return TOKEN_HOLDER;
    const principal = (await parts.apiTokens?.principalFor(given)) ?? null;
    if (principal !== null) return principal;
    guesses.fail(request.ip);
    return false;
  };

  app.addHook('onRequest', async (request, reply) => {
    // The matched route's own setting (a 404 or 405 has none), whatever the path's spelling.
    if (request.routeOptions.config.signInFree === true) return;
    const verdict = await check(request);
    if (typeof verdict === 'object') {
      request.principal = verdict;
      return;
    }
    if (typeof verdict === 'number') {
      return sendError(
        reply,
        429,
        'Too many wrong tokens from this address; wait a minute',
        verdict,
      );
    }
    return deny(request, reply, { hasLoginPage: token !== null, oidc: oidc !== null });
  });

  const signIn: SignInParts = {
    sessions,
    cookieName: SESSION_COOKIE,
    behindTls: config.behindTls === true,
    now,
    audit: parts.audit,
  };
  if (oidc !== null)
    recheck = installOidcSignIn(app, oidcSignIn(oidc, config, roles.roleOf, now), signIn);
  if (token !== null) installTokenSignIn(app, config, token, guesses, signIn);
  return {
    sessions,
    signOutPath: oidc !== null ? '/auth/logout' : token !== null ? '/logout' : null,
  };
}

/** A signed-in person's session, unless SESSION_IDLE_HOURS / SESSION_MAX_DAYS say otherwise. */
const PERSON_SESSION = { idleMs: 8 * 3_600_000, absoluteMs: 7 * 86_400_000 };

/**
 * What OIDC sign-in is built on, from the settings: the plugins part reads them here, and hands
 * the sign-in routes the provider, the sealing key and two numbers (issue 35).
 */
function oidcSignIn(
  oidc: OidcConfig,
  config: AccessConfig,
  roleOf: RoleOf,
  now: () => number,
): OidcSignInOptions {
  const { idleMs, absoluteMs } = config.sessionLifetimes ?? PERSON_SESSION;
  return {
    identity: new OidcIdentity(oidc, roleOf, now),
    keys: new OidcKeys(oidc.clientSecret),
    idleMs,
    absoluteMs,
  };
}

function installTokenSignIn(
  app: FastifyInstance,
  config: AccessConfig,
  token: string,
  guesses: GuessThrottle,
  { sessions, audit }: SignInParts,
): void {
  const cookieOptions = {
    httpOnly: true,
    sameSite: 'strict' as const,
    path: '/',
    secure: config.behindTls === true,
  };
  // The sign-in page and its form exist only with a token (proxy mode has no /login).
  app.get('/login', signInFree, async (request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(loginPage(false, returnPath((request.query as Record<string, unknown>).return_to))),
  );
  registerFormParser(app);
  app.post('/login', signInFree, async (request, reply) => {
    // A form post from our own pages only, so another site cannot sign someone in or out.
    if (crossSiteRefusal(request, config.behindTls === true) !== null) {
      return sendError(reply, 403, 'Sign-in must come from this site');
    }
    const wait = guesses.blockedFor(request.ip);
    if (wait > 0) {
      return sendError(reply, 429, 'Too many wrong tokens from this address; wait a minute', wait);
    }
    const form = request.body instanceof URLSearchParams ? request.body : null;
    const given = form?.get('token') ?? '';
    // The shared link the person opened, kept through the form (issue 33, point 11).
    const returnTo = returnPath(form?.get('return_to'));
    if (!sameSecret(given, token)) {
      guesses.fail(request.ip);
      await signInEvent(audit, request, null, 'sign-in failed', 401, 'wrong dashboard token');
      return reply.code(401).type('text/html; charset=utf-8').send(loginPage(true, returnTo));
    }
    await signInEvent(audit, request, TOKEN_HOLDER, 'sign-in', 303);
    return reply
      .setCookie(
        SESSION_COOKIE,
        await sessions.open(TOKEN_HOLDER, TOKEN_SESSION, null, request.ip),
        {
          ...cookieOptions,
          maxAge: SESSION_SECONDS,
        },
      )
      .redirect(returnTo, 303);
  });
  app.post('/logout', signInFree, async (request, reply) => {
    if (crossSiteRefusal(request, config.behindTls === true) !== null) {
      return sendError(reply, 403, 'Sign-out must come from this site');
    }
    const session = await sessions.find(request.cookies[SESSION_COOKIE]);
    await sessions.revoke(request.cookies[SESSION_COOKIE]);
    if (session) await signInEvent(audit, request, session.principal, 'sign-out', 303);
    return reply
      .header('clear-site-data', CLEAR_SITE_DATA)
      .clearCookie(SESSION_COOKIE, cookieOptions)
      .redirect('/login', 303);
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

/** A browser asking for a page is sent to sign in; anything else gets a 401. */
function deny(
  request: FastifyRequest,
  reply: FastifyReply,
  modes: { hasLoginPage: boolean; oidc: boolean },
): FastifyReply {
  const path = routedPath(request);
  const wantsPage =
    request.method === 'GET' &&
    !path.startsWith('/api/') &&
    (request.headers.accept ?? '').includes('text/html');
  if (wantsPage && modes.oidc) {
    // Back to the page asked for after sign-in (a path on this site only: oidc-sign-in.ts checks).
    return reply.redirect(`/auth/login?return_to=${encodeURIComponent(request.url)}`, 303);
  }
  if (wantsPage && modes.hasLoginPage) {
    // The page asked for comes back after the form (a path on this site only: returnPath).
    return reply.redirect(loginPath(returnPath(request.url)), 303);
  }
  if (modes.hasLoginPage || modes.oidc) {
    reply.header('www-authenticate', 'Bearer realm="Global Risk Dashboard"');
  }
  return sendError(
    reply,
    401,
    modes.oidc
      ? 'Sign-in required: sign in at /auth/login, or send Authorization: Bearer <API token>'
      : modes.hasLoginPage
        ? 'Sign-in required: send Authorization: Bearer <dashboard token>, or sign in at /login'
        : 'Sign-in required: open the dashboard through your organisation’s sign-in proxy',
  );
}
