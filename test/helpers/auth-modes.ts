import type { FastifyInstance, InjectOptions } from 'fastify';
import type { AppConfig } from '../../src/server/config.js';
import { Secret } from '../../src/server/secret.js';
import type { Role } from '../../src/shared/roles.js';

/**
 * How a test stack lets clients in: no access control (loopback), DASHBOARD_TOKEN (clients send
 * the token), or TRUSTED_PROXY_AUTH_HEADER (clients send the proxy's user and groups headers from
 * the trusted address, which `inject` requests come from).
 */
export const AUTH_MODES = ['open', 'token', 'proxy'] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

export const MODE_TOKEN = 'Vb7pQ2xZr9LmT4sKc8NwYe1HgJ6uAd3fXo5iRq0tWk=';
export const PROXY_USER_HEADER = 'x-forwarded-user';
export const PROXY_GROUPS_HEADER = 'x-forwarded-groups';
/** The proxy's address: where `inject` requests come from unless a test says otherwise. */
const PROXY_ADDRESS = '127.0.0.1';
const GROUP_OF: Record<Role, string> = {
  viewer: 'staff',
  editor: 'risk-editors',
  admin: 'risk-admins',
};

/**
 * The mode a history stack starts in when its test sets no access of its own: TEST_AUTH_MODE
 * (`open`, `token` or `proxy`), so any such test file can be run in another mode by hand.
 */
export function authModeFromEnv(): AuthMode {
  const mode = process.env.TEST_AUTH_MODE ?? 'open';
  if (!(AUTH_MODES as readonly string[]).includes(mode)) {
    throw new Error(`TEST_AUTH_MODE must be one of ${AUTH_MODES.join(', ')} (got ${mode})`);
  }
  return mode as AuthMode;
}

export function accessFor(mode: AuthMode): AppConfig['access'] {
  const none: AppConfig['access'] = {
    dashboardToken: null,
    trustedProxyAuthHeader: null,
    trustedProxyAddresses: [],
    allowedHosts: ['localhost', '127.0.0.1', '::1'],
    allowAnonymous: false,
  };
  if (mode === 'token') return { ...none, dashboardToken: new Secret(MODE_TOKEN) };
  if (mode === 'proxy') {
    return {
      ...none,
      trustedProxyAuthHeader: PROXY_USER_HEADER,
      trustedProxyGroupsHeader: PROXY_GROUPS_HEADER,
      trustedProxyAddresses: [PROXY_ADDRESS],
      roles: { editors: [GROUP_OF.editor], admins: [GROUP_OF.admin] },
    };
  }
  return none;
}

/**
 * What a client of `mode` sends to act with `role`: nothing (everyone is an admin), the
 * dashboard token (always an admin), or the proxy's headers for a person in that role's group.
 */
export function credentialsFor(mode: AuthMode, role: Role = 'admin'): Record<string, string> {
  if (mode === 'token') {
    if (role !== 'admin') throw new Error('The dashboard token is an admin');
    return { authorization: `Bearer ${MODE_TOKEN}` };
  }
  if (mode === 'proxy')
    return { [PROXY_USER_HEADER]: `${role}-person`, [PROXY_GROUPS_HEADER]: GROUP_OF[role] };
  return {};
}

/**
 * Makes `app.inject` send `headers` with every request (a request's own headers win), the way a
 * client of the mode would; returns the inject that sends none.
 */
export function injectWith(
  app: FastifyInstance,
  headers: Record<string, string>,
): FastifyInstance['inject'] {
  const bare = app.inject.bind(app) as FastifyInstance['inject'];
  if (Object.keys(headers).length === 0) return bare;
  const withHeaders = (options?: InjectOptions | string) => {
    // The chained form (`inject().get(...)`) is left as it is: no test here uses it.
    if (options === undefined) return bare();
    const given = typeof options === 'string' ? { url: options } : options;
    return bare(asModeClient(given, headers));
  };
  app.inject = withHeaders as FastifyInstance['inject'];
  return bare;
}

/**
 * A request as the mode's client sends it: with `headers` (the request's own win). Behind the
 * proxy every connection comes from the proxy's (trusted) address, and the per-client limits
 * count the person it vouches for: a client a test places at another address is a person of
 * its own there, sent from the proxy's address, unless the test names the person itself.
 */
function asModeClient(given: InjectOptions, headers: Record<string, string>): InjectOptions {
  const sent = { ...given, headers: { ...headers, ...given.headers } };
  const address = given.remoteAddress;
  const behindProxy = PROXY_USER_HEADER in headers && !(PROXY_USER_HEADER in (given.headers ?? {}));
  if (!behindProxy || address === undefined || address === PROXY_ADDRESS) return sent;
  return {
    ...sent,
    remoteAddress: PROXY_ADDRESS,
    headers: { ...sent.headers, [PROXY_USER_HEADER]: `person-at-${address}` },
  };
}

/**
 * The BFFs listening in this test file that a mode's client must reach with credentials (origin →
 * mode): the browser tests' fetch and pages send them there only, never to a stack that set its
 * own access (an OIDC stack, a proxy test's own headers) nor to the demo upstream.
 */
const modeOrigins = new Map<string, AuthMode>();

/** Records that clients of `baseUrl` act in `mode` (until `forgetModeOrigin`). */
export function rememberModeOrigin(baseUrl: string, mode: AuthMode): void {
  if (mode !== 'open') modeOrigins.set(new URL(baseUrl).origin, mode);
}

export function forgetModeOrigin(baseUrl: string): void {
  modeOrigins.delete(new URL(baseUrl).origin);
}

/** The listening stacks that need credentials, as [origin, mode]. */
export function modeOriginsNow(): [string, AuthMode][] {
  return [...modeOrigins];
}

/** The mode a request to `url` is made in (open when no stack in a mode listens there). */
export function modeOfUrl(url: string): AuthMode {
  try {
    return modeOrigins.get(new URL(url).origin) ?? 'open';
  } catch {
    return 'open';
  }
}
