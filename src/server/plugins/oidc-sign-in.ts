import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as client from 'openid-client';
import type { AccessConfig } from '../config.js';
import type { OidcConfig } from '../config-oidc.js';
import { claimValues, roleFromGroups, type Principal } from '../principal.js';
import { sendError } from '../reply.js';
import type { AuditLog } from '../services/identity/audit.js';
import { crossSiteRefusal } from './cross-site.js';
import { signedOutPage, signInProblemPage } from './login-page.js';
import type { SessionStore } from './sessions.js';

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

/** The browser's half of a sign-in in progress: state, nonce, PKCE verifier, where to go after. */
const PENDING_COOKIE = 'grd_signin';
/** A sign-in must come back from the provider within this. */
const PENDING_SECONDS = 10 * 60;
const signInFree = { config: { signInFree: true } };

interface Pending {
  state: string;
  nonce: string;
  verifier: string;
  returnTo: string;
}

function readPending(raw: string | undefined): Pending | null {
  if (raw === undefined) return null;
  try {
    const value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Partial<Pending>;
    const { state, nonce, verifier, returnTo } = value;
    if ([state, nonce, verifier, returnTo].every((v) => typeof v === 'string')) {
      return value as Pending;
    }
  } catch {
    // An unreadable cookie is no sign-in in progress.
  }
  return null;
}

/** A path on this site only (`/map?x=1`), so the return address cannot send anyone elsewhere. */
function localPath(value: unknown): string {
  return typeof value === 'string' &&
    /^\/(?![/\\])[^\s]*$/.test(value) &&
    !value.startsWith('/auth/')
    ? value.slice(0, 2000)
    : '/';
}

export function registerFormParser(app: FastifyInstance): void {
  if (app.hasContentTypeParser('application/x-www-form-urlencoded')) return;
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_request, body, done) => done(null, new URLSearchParams(body as string)),
  );
}

/** Why a callback failed, in words a person can act on (the library's detail goes to the log). */
function plainReason(error: unknown): string {
  if (error instanceof client.AuthorizationResponseError) {
    return `the identity provider answered "${error.error}"${error.error_description ? ` (${error.error_description})` : ''}.`;
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

/** The person an ID token names, with the role their groups map to. */
function personOf(claims: client.IDToken, groups: string[], access: AccessConfig): Principal {
  const text = (value: unknown): string | null =>
    typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, 200) : null;
  const email = text(claims.email);
  return {
    name: text(claims.name) ?? text(claims.preferred_username) ?? email ?? claims.sub.slice(0, 200),
    email,
    subject: `oidc:${claims.sub}`.slice(0, 200),
    role: roleFromGroups(groups, access.roles),
    via: 'oidc',
  };
}

/** Null when this address may sign in, else why not (OIDC_ALLOWED_EMAIL_DOMAINS). */
function emailRefusal(email: string | null, verified: boolean, domains: string[]): string | null {
  if (domains.length === 0) return null;
  const domain = email?.split('@').pop()?.toLowerCase() ?? null;
  if (email === null || domain === null || !domains.includes(domain)) {
    return `this account (${email ?? 'no e-mail address'}) may not use the dashboard: only addresses at ${domains.join(', ')} may sign in.`;
  }
  if (!verified) return `the identity provider has not verified the address ${email}.`;
  return null;
}

/**
 * OpenID Connect sign-in (issue 21): the authorization code flow with PKCE through openid-client,
 * which checks state, nonce, the PKCE verifier, the ID token's issuer, audience, expiry and
 * signature (against the provider's published keys). The provider is discovered from the issuer
 * on the first sign-in (retried on the next if it was unreachable), so a provider that is down at
 * start-up does not stop the dashboard.
 */
export function installOidcSignIn(
  app: FastifyInstance,
  oidc: OidcConfig,
  access: AccessConfig,
  parts: SignInParts,
): void {
  let discovered: Promise<client.Configuration> | null = null;
  const provider = (): Promise<client.Configuration> => {
    discovered ??= client
      .discovery(
        new URL(oidc.issuerUrl),
        oidc.clientId,
        undefined,
        client.ClientSecretPost(oidc.clientSecret.reveal()),
        // http:// is accepted only for a loopback issuer (config-oidc.ts), for tests.
        oidc.issuerUrl.startsWith('http:') ? { execute: [client.allowInsecureRequests] } : {},
      )
      .then((config) => {
        // The ID token's signature is checked against the provider's published keys, even
        // though it came straight from the token endpoint (the library would otherwise skip it).
        client.enableNonRepudiationChecks(config);
        return config;
      })
      .catch((error: unknown) => {
        discovered = null;
        throw error;
      });
    return discovered;
  };
  const cookieBase = { httpOnly: true, path: '/', secure: parts.behindTls };
  const pendingCookie = { ...cookieBase, sameSite: 'lax' as const, path: '/auth/' };
  const problem = (reply: FastifyReply, status: number, reason: string): FastifyReply =>
    reply
      .code(status)
      .clearCookie(PENDING_COOKIE, pendingCookie)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(signInProblemPage(reason));

  app.get('/auth/login', signInFree, async (request, reply) => {
    let config: client.Configuration;
    try {
      config = await provider();
    } catch (error) {
      request.log.warn({ err: error }, 'OIDC discovery failed');
      return problem(reply, 503, 'the identity provider cannot be reached; try again in a minute.');
    }
    const pending: Pending = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      verifier: client.randomPKCECodeVerifier(),
      returnTo: localPath((request.query as Record<string, unknown>).return_to),
    };
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: oidc.redirectUrl,
      scope: 'openid profile email',
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(pending.verifier),
      code_challenge_method: 'S256',
    });
    return (
      reply
        .header('cache-control', 'no-store')
        // SameSite=Lax: the provider's redirect back is a top-level navigation from its site.
        .setCookie(PENDING_COOKIE, Buffer.from(JSON.stringify(pending)).toString('base64url'), {
          ...pendingCookie,
          maxAge: PENDING_SECONDS,
        })
        .redirect(url.href, 303)
    );
  });

  app.get('/auth/callback', signInFree, async (request, reply) => {
    const pending = readPending(request.cookies[PENDING_COOKIE]);
    // The cookie goes with the first answer, so a callback is used at most once here.
    if (pending === null) {
      const reason =
        'this browser has no sign-in in progress (it may have been used already, or took longer than 10 minutes).';
      await signInEvent(parts.audit, request, null, 'sign-in failed', 400, reason);
      return problem(reply, 400, reason);
    }
    let config: client.Configuration;
    let principal: Principal;
    let emailVerified: boolean;
    let idToken: string | null;
    try {
      config = await provider();
      const current = new URL(oidc.redirectUrl);
      current.search = new URL(request.url, 'http://callback').search;
      const tokens = await client.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (claims === undefined) throw new Error('no ID token');
      let roleSource: unknown = claims[oidc.roleClaim];
      if (
        roleSource === undefined &&
        tokens.access_token &&
        config.serverMetadata().userinfo_endpoint
      ) {
        roleSource = (await client.fetchUserInfo(config, tokens.access_token, claims.sub))[
          oidc.roleClaim
        ];
      }
      idToken = tokens.id_token ?? null;
      principal = personOf(claims, claimValues(roleSource), access);
      emailVerified = claims.email_verified !== false;
    } catch (error) {
      request.log.warn({ err: error }, 'OIDC sign-in failed');
      const reason = plainReason(error);
      await signInEvent(parts.audit, request, null, 'sign-in failed', 400, reason);
      return problem(reply, 400, reason);
    }
    const refusal = emailRefusal(principal.email, emailVerified, oidc.allowedEmailDomains);
    if (refusal !== null) {
      await signInEvent(parts.audit, request, principal, 'sign-in failed', 403, refusal);
      return problem(reply, 403, refusal);
    }
    // A new id at every sign-in; whatever session this browser had before is ended.
    await parts.sessions.revoke(request.cookies[parts.cookieName]);
    const lifetimes = access.sessionLifetimes ?? {
      idleMs: 8 * 3_600_000,
      absoluteMs: 7 * 86_400_000,
    };
    const id = await parts.sessions.open(principal, lifetimes, idToken, request.ip);
    request.log.info({ via: 'oidc', role: principal.role }, 'signed in');
    await signInEvent(parts.audit, request, principal, 'sign-in', 303);
    return reply
      .clearCookie(PENDING_COOKIE, pendingCookie)
      .setCookie(parts.cookieName, id, {
        ...cookieBase,
        sameSite: 'lax',
        maxAge: Math.floor(lifetimes.absoluteMs / 1000),
      })
      .redirect(pending.returnTo, 303);
  });

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
    reply.clearCookie(parts.cookieName, { ...cookieBase, sameSite: 'lax' });
    // Signed out here; then at the provider too, when it offers an end-session endpoint.
    const config = await provider().catch(() => null);
    if (config?.serverMetadata().end_session_endpoint) {
      const end = client.buildEndSessionUrl(config, {
        post_logout_redirect_uri: new URL('/auth/signed-out', oidc.redirectUrl).href,
        ...(session?.idToken ? { id_token_hint: session.idToken } : { client_id: oidc.clientId }),
      });
      return reply.redirect(end.href, 303);
    }
    return reply.redirect('/auth/signed-out', 303);
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
