import type { Principal, RoleOf } from '../../principal.js';
import { plainText } from './plain-text.js';

/*
 * What the provider says about a person, as providers really send it (issue 30): claims in the
 * ID token, in UserInfo, or split between them; roles in a nested claim (Keycloak's
 * `realm_access.roles`), as a list or as one space- or comma-separated string.
 */

export type Claims = Record<string, unknown>;

/** The ID token's protocol claims: they say nothing about the person and are not kept. */
const PROTOCOL_CLAIMS = new Set([
  'iss',
  'aud',
  'exp',
  'iat',
  'nbf',
  'nonce',
  'azp',
  'at_hash',
  'c_hash',
  's_hash',
  'auth_time',
  'acr',
  'amr',
  'sid',
  'jti',
]);

/** UserInfo named another person than the ID token (OpenID Connect Core 1.0 §5.3.2). */
export class SubjectMismatch extends Error {
  override name = 'SubjectMismatch';
}

/** The person's claims of an ID token (protocol claims dropped). */
export function personClaims(idToken: Claims): Claims {
  return Object.fromEntries(Object.entries(idToken).filter(([key]) => !PROTOCOL_CLAIMS.has(key)));
}

/**
 * The ID token's claims with UserInfo's over them (UserInfo is asked after the token, so it is
 * the fresher answer; a default-configured provider sends name, e-mail and groups only there).
 * The ID token's `sub` is the person; a UserInfo answer for another `sub` is refused (§5.3.2).
 */
export function mergeClaims(idToken: Claims, userInfo: Claims | null): Claims {
  if (userInfo === null) return personClaims(idToken);
  if (userInfo.sub !== idToken.sub) {
    throw new SubjectMismatch('UserInfo names another subject than the ID token');
  }
  return { ...personClaims(idToken), ...personClaims(userInfo), sub: idToken.sub };
}

/**
 * The claim at `path`: a top-level claim of that very name first (namespaced claims such as
 * `https://example.com/roles` contain dots), else the dotted path through nested objects.
 */
export function claimAt(claims: Claims, path: string): unknown {
  if (Object.hasOwn(claims, path)) return claims[path];
  let value: unknown = claims;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    if (!Object.hasOwn(value, part)) return undefined;
    value = (value as Claims)[part];
  }
  return value;
}

/**
 * A claim's values: each string of a list, or one string split at commas (when it has any),
 * else at spaces; the whole string counts too, so a group named "Risk Editors" still matches.
 */
export function claimValues(value: unknown): string[] {
  if (Array.isArray(value)) {
    return value.filter((item): item is string => typeof item === 'string').map((s) => s.trim());
  }
  if (typeof value !== 'string') return [];
  const whole = value.trim();
  const parts = whole.split(whole.includes(',') ? ',' : /\s+/).map((part) => part.trim());
  return [...new Set([whole, ...parts])].filter((item) => item !== '');
}

function text(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const plain = plainText(value);
  return plain === '' ? null : plain;
}

/** The person the merged claims name, with the role their `roleClaim` values map to. */
export function personOf(claims: Claims, roleClaim: string, roleOf: RoleOf): Principal {
  const sub = String(claims.sub);
  const email = text(claims.email);
  const given = [text(claims.given_name), text(claims.family_name)].filter(Boolean).join(' ');
  return {
    name:
      text(claims.name) ??
      (given || null) ??
      text(claims.preferred_username) ??
      email ??
      plainText(sub),
    email,
    subject: `oidc:${sub}`.slice(0, 200),
    role: roleOf(claimValues(claimAt(claims, roleClaim))),
    via: 'oidc',
  };
}

/**
 * Whether the provider vouches for the address: `email_verified` absent (many providers, Entra
 * ID among them, never send it), `true` or the string "true"; anything else (false, "false",
 * "0") is not verified.
 */
export function emailVerified(claims: Claims): boolean {
  const verified = claims.email_verified;
  return verified === undefined || verified === true || verified === 'true';
}

/** Null when this person may sign in (OIDC_ALLOWED_EMAIL_DOMAINS), else why not. */
export function emailRefusal(
  claims: Claims,
  email: string | null,
  domains: string[],
): string | null {
  if (domains.length === 0) return null;
  const domain = email?.split('@').pop()?.toLowerCase() ?? null;
  if (email === null || domain === null || !domains.includes(domain)) {
    return `this account (${email ?? 'no e-mail address'}) may not use the dashboard: only addresses at ${domains.join(', ')} may sign in.`;
  }
  if (!emailVerified(claims)) return `the identity provider has not verified the address ${email}.`;
  return null;
}
