import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as client from 'openid-client';
import type { SessionLifetimes } from '../config-oidc.js';
import type { Principal } from '../principal.js';
import { sendError } from '../reply.js';
import type { AuditLog } from '../services/identity/audit.js';
import { SubjectMismatch, type Claims } from '../services/identity/oidc-claims.js';
import type { OidcIdentity, Pending, ProviderGrant } from '../services/identity/oidc-identity.js';
import type { OidcKeys } from '../services/identity/oidc-keys.js';
import { plainText } from '../services/identity/plain-text.js';
import { crossSiteRefusal } from './cross-site.js';
import { FailureBuckets } from './failure-buckets.js';
import { signedOutPage, signInProblemPage } from './login-page.js';
import { createRoleRecheck, type RoleRecheck } from './oidc-recheck.js';
import { CLEAR_SITE_DATA, type SessionStore } from './sessions.js';
import { returnPath } from './return-path.js';

/**
 * What OIDC sign-in is built on, made by the access plugin from its settings (issue 35: the
 * settings stop there): the provider, the key that seals grants, how long a session lasts.
 */
export interface OidcSignInOptions {
  identity: OidcIdentity;
  keys: OidcKeys;
  /** SESSION_IDLE_HOURS and SESSION_MAX_DAYS, in milliseconds. */
  idleMs: number;
  absoluteMs: number;
}

/** What the sign-in routes share with the access plugin. */
export interface SignInParts {
  sessions: SessionStore;
  cookieName: string;
  behindTls: boolean;
  now: () => number;
  /** Where sign-ins, failed sign-ins and sign-outs are recorded (absent without a store). */
  audit?: AuditLog;
}

/** Records a sign-in, a failed one or a sign-out; a store failure is logged by the log itself. */
export async function signInEvent(
  audit: AuditLog | undefined,
  request: FastifyRequest,
  actor: Principal | null,
  action: 'sign-in' | 'sign-in failed' | 'sign-out',
  status: number,
  detail: string | null = null,
): Promise<void> {
  await audit
    ?.record({ actor, address: request.ip, action, object: null, status, detail })
    .catch(() => undefined);
}

/** The browser's half of a sign-in in progress (signed: oidc-keys.ts), where to go after. */
const PENDING_COOKIE = 'grd_signin';
/** A sign-in must come back from the provider within this. */
const PENDING_SECONDS = 10 * 60;
/** Failed callbacks one client address may cause: a burst, then this many a minute (then 429). */
const FAILED_CALLBACK_BURST = 10;
const FAILED_CALLBACKS_PER_MINUTE = 10;
/** Failed sign-ins the audit log takes from all addresses together: a burst, then a minute's. */
const FAILED_AUDIT_BURST = 100;
const FAILED_AUDITS_PER_MINUTE = 60;
const signInFree = { config: { signInFree: true } };

/** A path on this site only (`/map?x=1`), so the return address cannot send anyone elsewhere. */
const localPath = returnPath;

/** The pending sign-in a cookie carries, or null (none, altered, or not signed by us). */
function readPending(keys: OidcKeys, raw: string | undefined): Pending | null {
  const payload = raw === undefined ? null : keys.verify(raw);
  if (payload === null) return null;
  try {
    const value = JSON.parse(
      Buffer.from(payload, 'base64url').toString('utf8'),
    ) as Partial<Pending>;
    const { state, nonce, verifier, returnTo } = value;
    if ([state, nonce, verifier, returnTo].every((v) => typeof v === 'string')) {
      // Checked again on the way out, whatever was signed.
      return { ...(value as Pending), returnTo: localPath(returnTo) };
    }
  } catch {
    // An unreadable cookie is no sign-in in progress.
  }
  return null;
}

export function registerFormParser(app: FastifyInstance): void {
  if (app.hasContentTypeParser('application/x-www-form-urlencoded')) return;
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_request, body, done) => done(null, new URLSearchParams(body as string)),
  );
}

/**
 * Why a callback failed, in words a person can act on (the library's detail goes to the log).
 * A provider's own words are kept only as plain, bounded text (plain-text.ts): anyone can put
 * anything in `error` and `error_description` of a callback URL.
 */
export function plainReason(error: unknown): string {
  if (error instanceof client.AuthorizationResponseError) {
    const said = plainText(error.error, 60);
    const description = error.error_description ? plainText(error.error_description, 140) : '';
    return `the identity provider refused the sign-in (it said: ${said}${description ? `; ${description}` : ''}).`;
  }
  if (error instanceof SubjectMismatch) {
    return 'the identity provider’s UserInfo answer names another person than its ID token.';
  }
  const code = (error as { code?: unknown }).code;
  // openid-client wraps oauth4webapi's finding (which names the parameter) as the cause.
  const cause = error instanceof Error ? error.cause : undefined;
  const message = [error, cause].map((e) => (e instanceof Error ? e.message : '')).join(' ');
  if (/"state"/.test(message)) {
    return 'the answer does not belong to the sign-in this browser started (it may be old, replayed or altered).';
  }
  if (code === 'OAUTH_RESPONSE_BODY_ERROR' || /invalid_grant/.test(message)) {
    return 'the identity provider refused the sign-in code (it may have been used already or expired).';
  }
  return 'the identity provider’s answer could not be verified.';
}

/** What the sign-in plugin builds once: the provider, its keys, the failure throttles. */
interface SignInContext {
  app: FastifyInstance;
  lifetimes: SessionLifetimes;
  parts: SignInParts;
  identity: OidcIdentity;
  keys: OidcKeys;
  failures: FailureBuckets;
  audits: FailureBuckets;
}

const cookieBase = (parts: SignInParts) => ({
  httpOnly: true,
  path: '/',
  secure: parts.behindTls,
});
const pendingCookie = (parts: SignInParts) => ({
  ...cookieBase(parts),
  sameSite: 'lax' as const,
  path: '/auth/',
});

function problem(parts: SignInParts, reply: FastifyReply, status: number, reason: string) {
  return reply
    .code(status)
    .clearCookie(PENDING_COOKIE, pendingCookie(parts))
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(signInProblemPage(reason));
}

/**
 * OpenID Connect sign-in (issues 21 and 30): the authorization code flow with PKCE through
 * openid-client, UserInfo merged with the ID token's claims, the role re-derived from the
 * provider while the session lives (oidc-recheck.ts). Returns that re-check for the access plugin.
 */
export function installOidcSignIn(
  app: FastifyInstance,
  { identity, keys, idleMs, absoluteMs }: OidcSignInOptions,
  parts: SignInParts,
): RoleRecheck {
  const context: SignInContext = {
    app,
    lifetimes: { idleMs, absoluteMs },
    parts,
    identity,
    keys,
    failures: new FailureBuckets(FAILED_CALLBACK_BURST, FAILED_CALLBACKS_PER_MINUTE, parts.now),
    audits: new FailureBuckets(FAILED_AUDIT_BURST, FAILED_AUDITS_PER_MINUTE, parts.now),
  };
  registerLogin(context);
  registerCallback(context);
  registerLogout(context);
  return createRoleRecheck({
    identity: context.identity,
    keys: context.keys,
    sessions: parts.sessions,
    now: parts.now,
    log: app.log,
  });
}

function registerLogin({ app, parts, identity, keys }: SignInContext): void {
  app.get('/auth/login', signInFree, async (request, reply) => {
    const pending: Pending = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      verifier: client.randomPKCECodeVerifier(),
      returnTo: localPath((request.query as Record<string, unknown>).return_to),
    };
    let url: URL;
    try {
      url = await identity.authorizationUrl(pending);
    } catch (error) {
      request.log.warn({ err: error }, 'OIDC discovery failed');
      return problem(
        parts,
        reply,
        503,
        'the identity provider cannot be reached; try again in a minute.',
      );
    }
    const value = keys.sign(Buffer.from(JSON.stringify(pending)).toString('base64url'));
    return (
      reply
        .header('cache-control', 'no-store')
        // SameSite=Lax: the provider's redirect back is a top-level navigation from its site.
        .setCookie(PENDING_COOKIE, value, { ...pendingCookie(parts), maxAge: PENDING_SECONDS })
        .redirect(url.href, 303)
    );
  });
}

/** A failed callback: counted against the address, audited while the log's budget lasts. */
async function failCallback(
  context: SignInContext,
  request: FastifyRequest,
  reply: FastifyReply,
  failure: { status: number; reason: string; actor?: Principal },
): Promise<FastifyReply> {
  context.failures.take(request.ip);
  if (context.audits.take('all')) {
    const { audit } = context.parts;
    await signInEvent(
      audit,
      request,
      failure.actor ?? null,
      'sign-in failed',
      failure.status,
      failure.reason,
    );
  } else {
    request.log.warn('a failed sign-in was not audited: too many failed sign-ins this minute');
  }
  return problem(context.parts, reply, failure.status, failure.reason);
}

function registerCallback(context: SignInContext): void {
  const { app, parts, keys } = context;
  app.get('/auth/callback', signInFree, async (request, reply) => {
    const wait = context.failures.blockedFor(request.ip);
    if (wait > 0) {
      return problem(
        parts,
        reply.header('retry-after', String(Math.ceil(wait / 1000))),
        429,
        'too many failed sign-ins from this address; wait a minute, then start again.',
      );
    }
    const pending = readPending(keys, request.cookies[PENDING_COOKIE]);
    // The cookie goes with the first answer, so a callback is used at most once here.
    if (pending === null) {
      return failCallback(context, request, reply, {
        status: 400,
        reason:
          'this browser has no sign-in in progress (it may have been used already, or took longer than 10 minutes).',
      });
    }
    let signedIn: { claims: Claims; grant: ProviderGrant; idToken: string | null };
    try {
      signedIn = await context.identity.signIn(
        new URL(request.url, 'http://callback').search,
        pending,
      );
    } catch (error) {
      request.log.warn({ err: error }, 'OIDC sign-in failed');
      return failCallback(context, request, reply, { status: 400, reason: plainReason(error) });
    }
    const principal = context.identity.personOf(signedIn.claims);
    const refusal = context.identity.emailRefusal(signedIn.claims, principal.email);
    if (refusal !== null) {
      return failCallback(context, request, reply, {
        status: 403,
        reason: refusal,
        actor: principal,
      });
    }
    return openSession(context, request, reply, {
      ...signedIn,
      principal,
      returnTo: pending.returnTo,
    });
  });
}

async function openSession(
  { parts, lifetimes, keys }: SignInContext,
  request: FastifyRequest,
  reply: FastifyReply,
  signedIn: {
    principal: Principal;
    grant: ProviderGrant;
    idToken: string | null;
    returnTo: string;
  },
): Promise<FastifyReply> {
  const { principal } = signedIn;
  // A new id at every sign-in; whatever session this browser had before is ended.
  await parts.sessions.revoke(request.cookies[parts.cookieName]);
  const sealed = keys.seal(JSON.stringify(signedIn.grant));
  const id = await parts.sessions.open(principal, lifetimes, signedIn.idToken, request.ip, sealed);
  request.log.info({ via: 'oidc', role: principal.role }, 'signed in');
  await signInEvent(parts.audit, request, principal, 'sign-in', 303);
  return reply
    .clearCookie(PENDING_COOKIE, pendingCookie(parts))
    .setCookie(parts.cookieName, id, {
      ...cookieBase(parts),
      sameSite: 'lax',
      maxAge: Math.floor(lifetimes.absoluteMs / 1000),
    })
    .redirect(signedIn.returnTo, 303);
}

function registerLogout({ app, parts, identity }: SignInContext): void {
  // The sign-out button is a plain form post.
  registerFormParser(app);
  app.post('/auth/logout', signInFree, async (request, reply) => {
    if (crossSiteRefusal(request, parts.behindTls) !== null) {
      return sendError(reply, 403, 'Sign-out must come from this site');
    }
    const cookieValue = request.cookies[parts.cookieName];
    const session = await parts.sessions.find(cookieValue);
    await parts.sessions.revoke(cookieValue);
    if (session) await signInEvent(parts.audit, request, session.principal, 'sign-out', 303);
    reply.header('clear-site-data', CLEAR_SITE_DATA);
    reply.clearCookie(parts.cookieName, { ...cookieBase(parts), sameSite: 'lax' });
    // Signed out here; then at the provider too, when it offers an end-session endpoint.
    const end = await identity.endSessionUrl(session?.idToken ?? null);
    return reply.redirect(end ?? '/auth/signed-out', 303);
  });
  app.route({
    method: ['GET', 'HEAD'],
    url: '/auth/logout',
    ...signInFree,
    handler: async (_request, reply) =>
      sendError(
        reply.header('allow', 'POST'),
        405,
        'Sign out with POST /auth/logout (a form button)',
      ),
  });
  app.get('/auth/signed-out', signInFree, async (_request, reply) =>
    reply
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(signedOutPage()),
  );
}
