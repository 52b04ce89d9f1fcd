import type { FastifyBaseLogger } from 'fastify';
import type { Principal } from '../principal.js';
import type { OidcIdentity, ProviderGrant } from '../services/identity/oidc-identity.js';
import type { OidcKeys } from '../services/identity/oidc-keys.js';
import { MINUTE_MS } from '../../shared/durations.js';
import { sessionHash, type Session, type SessionStore } from './sessions.js';

/**
 * A signed-in person's role is asked of the provider again at most this often (issue 30): a
 * group removed at the provider reaches live sessions within it (plus one request).
 */
export const ROLE_RECHECK_MS = 5 * MINUTE_MS;
/** While the provider cannot be reached, a session keeps its role this long after its last answer, then is a viewer. */
export const UNVERIFIED_GRACE_MS = 60 * MINUTE_MS;

export interface RecheckDeps {
  identity: OidcIdentity;
  keys: OidcKeys;
  sessions: SessionStore;
  now: () => number;
  log: FastifyBaseLogger;
}

/** Who the session acts for now; null when the session must end. */
export type RoleRecheck = (id: string, session: Session) => Promise<Principal | null>;

function grantOf(keys: OidcKeys, sealed: string | null): ProviderGrant | null {
  const plain = sealed === null ? null : keys.unseal(sealed);
  if (plain === null) return null;
  try {
    const grant = JSON.parse(plain) as Partial<ProviderGrant>;
    return typeof grant.accessToken === 'string' && typeof grant.idClaims === 'object'
      ? (grant as ProviderGrant)
      : null;
  } catch {
    return null;
  }
}

/** One due re-check of a session whose check this caller claimed. */
async function recheckSession(
  deps: RecheckDeps,
  id: string,
  session: Session,
): Promise<Principal | null> {
  const { sessions, log } = deps;
  const grant = grantOf(deps.keys, session.grant);
  // A session from before roles were re-checked (or sealed with another client secret) cannot
  // be asked about: it ends, and the person signs in again.
  const result =
    grant === null ? { outcome: 'refused' as const } : await deps.identity.recheck(grant);
  if (result.outcome === 'unreachable') {
    log.warn('the identity provider could not be asked about a signed-in person’s role');
    if (grant === null || deps.now() - grant.verifiedAt <= UNVERIFIED_GRACE_MS) {
      return session.principal;
    }
    const unverified: Principal = { ...session.principal, role: 'viewer' };
    await sessions.updateIdentity(id, unverified, session.grant);
    return unverified;
  }
  const principal = result.outcome === 'current' ? deps.identity.personOf(result.claims) : null;
  if (
    result.outcome !== 'current' ||
    principal === null ||
    deps.identity.emailRefusal(result.claims, principal.email) !== null
  ) {
    log.info({ via: 'oidc' }, 'the identity provider no longer vouches for a signed-in person');
    await sessions.revoke(id);
    return null;
  }
  if (principal.role !== session.principal.role) {
    log.info({ from: session.principal.role, to: principal.role }, 'role changed at the provider');
  }
  await sessions.updateIdentity(id, principal, deps.keys.seal(JSON.stringify(result.grant)));
  return principal;
}

/**
 * The role of a session opened by OIDC sign-in, re-derived from the provider at most every
 * ROLE_RECHECK_MS (not frozen for the session's 7 days): one re-check per session at a time here,
 * and one across replicas (the store's compare-and-set on the check time).
 */
export function createRoleRecheck(deps: RecheckDeps): RoleRecheck {
  const running = new Map<string, Promise<Principal | null>>();
  return async (id, session) => {
    if (session.principal.via !== 'oidc') return session.principal;
    const hash = sessionHash(id);
    const pending = running.get(hash);
    if (pending !== undefined) return pending;
    const now = deps.now();
    if (now - session.checkedAt < ROLE_RECHECK_MS) return session.principal;
    const work = (async () => {
      if (!(await deps.sessions.claimRecheck(id, session.checkedAt, now))) {
        return session.principal;
      }
      return recheckSession(deps, id, session);
    })().finally(() => running.delete(hash));
    running.set(hash, work);
    return work;
  };
}
