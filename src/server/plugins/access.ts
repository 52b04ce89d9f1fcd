import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ClientIdentity } from '../client-identity.js';
import type { AppConfig } from '../config.js';
import { sendError } from '../routes/respond.js';
import { loginPage } from './login-page.js';

const SESSION_COOKIE = 'grd_session';
const SESSION_SECONDS = 12 * 60 * 60;
/** Open to anyone: liveness and readiness probes cannot sign in; the login page must be reachable. */
const OPEN_PATHS = new Set(['/healthz', '/readyz', '/login', '/logout']);

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** Equal-length digests compared in constant time, so timing reveals nothing about the token. */
function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

function sessionMac(token: string, expires: number): string {
  return createHmac('sha256', token).update(`grd-session:${expires}`).digest('base64url');
}

/** `<expiry>.<HMAC>`: stateless, survives restarts, invalid as soon as the token changes. */
export function sessionValue(token: string, nowMs: number): string {
  const expires = Math.floor(nowMs / 1000) + SESSION_SECONDS;
  return `${expires}.${sessionMac(token, expires)}`;
}

function validSession(value: string | undefined, token: string, nowMs: number): boolean {
  const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(value ?? '');
  if (!match?.[1] || !match[2]) return false;
  const expires = Number(match[1]);
  return expires > nowMs / 1000 && sameSecret(match[2], sessionMac(token, expires));
}

function bearer(request: FastifyRequest): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  return match?.[1] ?? null;
}

/**
 * Access control when the operator configured one: DASHBOARD_TOKEN (a bearer token for scripts,
 * or the sign-in page that sets an HttpOnly, SameSite=Strict session cookie) and/or
 * TRUSTED_PROXY_AUTH_HEADER (an SSO proxy in front vouches for each request). Either passes.
 */
export async function installAccess(
  app: FastifyInstance,
  config: AppConfig,
  identity: ClientIdentity,
  now: () => number,
): Promise<void> {
  const token = config.access.dashboardToken?.reveal() ?? null;
  const proxyHeader = config.access.trustedProxyAuthHeader;
  if (token === null && proxyHeader === null) return;

  await app.register(cookie);
  await app.register(rateLimit, { global: false });

  const allowed = (request: FastifyRequest): boolean => {
    if (identity.vouchedUser(request) !== null) return true;
    if (token === null) return false;
    const given = bearer(request);
    if (given !== null) return sameSecret(given, token);
    return validSession(request.cookies[SESSION_COOKIE], token, now());
  };

  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (OPEN_PATHS.has(path) || allowed(request)) return;
    return deny(request, reply, path, token !== null);
  });

  if (token === null) return;
  const cookieOptions = {
    httpOnly: true,
    sameSite: 'strict' as const,
    path: '/',
    secure: config.behindTls,
  };
  app.get('/login', async (_request, reply) =>
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
  app.post(
    '/login',
    { config: { rateLimit: { max: 10, timeWindow: 60_000 } } },
    async (request, reply) => {
      const form = request.body instanceof URLSearchParams ? request.body : null;
      const given = form?.get('token') ?? '';
      if (!sameSecret(given, token)) {
        return reply.code(401).type('text/html; charset=utf-8').send(loginPage(true));
      }
      return reply
        .setCookie(SESSION_COOKIE, sessionValue(token, now()), {
          ...cookieOptions,
          maxAge: SESSION_SECONDS,
        })
        .redirect('/', 303);
    },
  );
  app.post('/logout', async (_request, reply) =>
    reply.clearCookie(SESSION_COOKIE, cookieOptions).redirect('/login', 303),
  );
}

function deny(
  request: FastifyRequest,
  reply: FastifyReply,
  path: string,
  hasLoginPage: boolean,
): FastifyReply {
  const wantsPage =
    request.method === 'GET' &&
    !path.startsWith('/api/') &&
    path !== '/metrics' &&
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
