import { readFileSync } from 'node:fs';
import { Secret } from './secret.js';

/** OpenID Connect sign-in (issue 21): set when OIDC_ISSUER_URL is. */
export interface OidcConfig {
  issuerUrl: string;
  clientId: string;
  clientSecret: Secret;
  /** The full callback URL registered at the provider (…/auth/callback). */
  redirectUrl: string;
  /**
   * The claim whose values map to roles (OIDC_ROLE_CLAIM, default `groups`), in the ID token or
   * UserInfo: a name, or a dotted path into nested claims (`realm_access.roles` for Keycloak).
   */
  roleClaim: string;
  /** The scopes asked for (OIDC_SCOPES); absent: `openid profile email`. Always has `openid`. */
  scopes?: string[];
  /** Lower-case e-mail domains allowed to sign in; empty allows any. */
  allowedEmailDomains: string[];
}

/** OIDC_EDITORS / OIDC_ADMINS: claim (or proxy group) values that make someone an editor or admin. */
export interface RoleMapping {
  editors: string[];
  admins: string[];
}

/** Session lifetimes for people who sign in (SESSION_IDLE_HOURS, SESSION_MAX_DAYS). */
export interface SessionLifetimes {
  idleMs: number;
  absoluteMs: number;
}

type Raw = Record<string, string | null>;

export class OidcConfigError extends Error {}

/** What the sign-in asks for when OIDC_SCOPES is unset. */
export const DEFAULT_SCOPES = ['openid', 'profile', 'email'];
/** A scope token as RFC 6749 §3.3 allows it (printable ASCII but space, `"` and `\\`). */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/** OIDC_SCOPES: separated by spaces or commas; `openid` is required (without it, no ID token). */
function readScopes(raw: string | null, problem: (message: string) => never): string[] {
  if (raw === null) return DEFAULT_SCOPES;
  const scopes = [...new Set(raw.split(/[\s,]+/).filter((scope) => scope !== ''))];
  const bad = scopes.find((scope) => !SCOPE_TOKEN.test(scope));
  if (bad !== undefined) {
    return problem(`OIDC_SCOPES must list scopes separated by spaces (got "${bad}")`);
  }
  if (!scopes.includes('openid')) {
    return problem('OIDC_SCOPES must include openid (e.g. "openid profile email groups")');
  }
  return scopes;
}

/** OIDC_ROLE_CLAIM: a claim name or a dotted path to a nested one (`realm_access.roles`). */
function readRoleClaim(raw: string | null, problem: (message: string) => never): string {
  const claim = raw?.trim() ?? 'groups';
  if (claim === '' || claim.split('.').some((part) => part === '')) {
    return problem(
      `OIDC_ROLE_CLAIM must name a claim, or a path such as realm_access.roles (got "${claim}")`,
    );
  }
  return claim;
}

function list(raw: string | null): string[] {
  return (raw ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function url(name: string, raw: string, problem: (message: string) => never): string {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    return problem(`${name} is not a valid URL (expected https://…)`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    return problem(`${name} must use https:// (got ${parsed.protocol})`);
  }
  if (parsed.username || parsed.password) return problem(`${name} must not contain credentials`);
  return parsed.href;
}

/** The client secret from OIDC_CLIENT_SECRET or the file OIDC_CLIENT_SECRET_FILE; never echoed. */
function readSecret(env: Raw, problem: (message: string) => never): Secret {
  const inline = env.OIDC_CLIENT_SECRET ?? null;
  const file = env.OIDC_CLIENT_SECRET_FILE ?? null;
  if (inline !== null && file !== null) {
    return problem('Set OIDC_CLIENT_SECRET or OIDC_CLIENT_SECRET_FILE, not both');
  }
  if (file !== null) {
    let value: string;
    try {
      value = readFileSync(file, 'utf8').trim();
    } catch {
      return problem(`OIDC_CLIENT_SECRET_FILE: cannot read the file ${file}`);
    }
    if (value === '') return problem(`OIDC_CLIENT_SECRET_FILE: the file ${file} is empty`);
    return new Secret(value);
  }
  if (inline === null) {
    return problem(
      'OIDC_ISSUER_URL is set but OIDC_CLIENT_SECRET (or OIDC_CLIENT_SECRET_FILE) is not',
    );
  }
  return new Secret(inline);
}

/**
 * The OIDC settings, or null when OIDC_ISSUER_URL is unset (then any other OIDC_* setting that
 * only sign-in uses is refused, so a half-made configuration is noticed at start-up).
 */
export function readOidc(env: Raw, problem: (message: string) => never): OidcConfig | null {
  const issuer = env.OIDC_ISSUER_URL ?? null;
  if (issuer === null) {
    const stray = [
      'OIDC_CLIENT_ID',
      'OIDC_CLIENT_SECRET',
      'OIDC_CLIENT_SECRET_FILE',
      'OIDC_REDIRECT_URL',
      'OIDC_SCOPES',
    ].find((name) => (env[name] ?? null) !== null);
    if (stray) return problem(`${stray} is set but OIDC_ISSUER_URL is not`);
    return null;
  }
  const clientId = env.OIDC_CLIENT_ID ?? null;
  if (clientId === null) return problem('OIDC_ISSUER_URL is set but OIDC_CLIENT_ID is not');
  const redirect = env.OIDC_REDIRECT_URL ?? null;
  if (redirect === null) {
    return problem(
      'OIDC_ISSUER_URL is set but OIDC_REDIRECT_URL is not (the full callback URL registered at the provider, ending in /auth/callback)',
    );
  }
  const redirectUrl = url('OIDC_REDIRECT_URL', redirect, problem);
  if (new URL(redirectUrl).pathname !== '/auth/callback') {
    return problem('OIDC_REDIRECT_URL must end in /auth/callback (the dashboard’s callback path)');
  }
  const domains = list(env.OIDC_ALLOWED_EMAIL_DOMAINS ?? null).map((d) =>
    d.toLowerCase().replace(/^@/, ''),
  );
  const badDomain = domains.find((d) => !/^[a-z0-9.-]+\.[a-z]{2,}$/.test(d));
  if (badDomain !== undefined) {
    return problem(
      `OIDC_ALLOWED_EMAIL_DOMAINS must list e-mail domains such as example.com, separated by commas (got "${badDomain}")`,
    );
  }
  const issuerUrl = url('OIDC_ISSUER_URL', issuer, problem);
  const issuerHost = new URL(issuerUrl).hostname;
  if (issuerUrl.startsWith('http:') && !['localhost', '127.0.0.1', '[::1]'].includes(issuerHost)) {
    return problem(
      'OIDC_ISSUER_URL must use https:// (plain http:// only for a provider on loopback)',
    );
  }
  return {
    issuerUrl,
    clientId,
    clientSecret: readSecret(env, problem),
    redirectUrl,
    roleClaim: readRoleClaim(env.OIDC_ROLE_CLAIM ?? null, problem),
    scopes: readScopes(env.OIDC_SCOPES ?? null, problem),
    allowedEmailDomains: domains,
  };
}

export function readRoleMapping(env: Raw): RoleMapping {
  return { editors: list(env.OIDC_EDITORS ?? null), admins: list(env.OIDC_ADMINS ?? null) };
}
