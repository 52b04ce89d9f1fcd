import type { FastifyRequest } from 'fastify';
import { OPEN_ACCESS_NAME, ROLES, type Role, type SIGN_IN_METHODS } from '../shared/roles.js';
import type { RoleMapping } from './config-oidc.js';

/** Who a request acts for, once access control let it in (issue 21). */
export interface Principal {
  /** What the user menu shows: the person's name, e-mail, or the API token's name. */
  name: string;
  email: string | null;
  /**
   * Whose personal lists this is (`oidc:<sub>`, or the proxy's user); null for tokens, which
   * act for the team and never for a person.
   */
  subject: string | null;
  role: Role;
  via: (typeof SIGN_IN_METHODS)[number];
}

/**
 * What an admin's list shows of a signed-in session (plugins/sessions.ts keeps them, routes/
 * identity.ts lists them): never its id (the cookie's value), only an opaque handle, the SHA-256
 * it is stored under, which cannot be turned back into the cookie.
 */
export interface SessionSummary {
  id: string;
  principal: Principal;
  createdAt: number;
  lastSeen: number;
  expiresAt: number;
  address: string | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the access plugin; null when no access control is configured (then anyone is admin). */
    principal: Principal | null;
  }
}

/** Everyone, when the operator configured no access control (loopback or ALLOW_ANONYMOUS). */
export const OPEN_PRINCIPAL: Principal = {
  name: OPEN_ACCESS_NAME,
  email: null,
  subject: null,
  role: 'admin',
  via: 'open',
};

export function principalOf(request: FastifyRequest): Principal {
  return request.principal ?? OPEN_PRINCIPAL;
}

/** A person's groups to their role; built once from OIDC_ADMINS and OIDC_EDITORS. */
export type RoleOf = (groups: readonly string[]) => Role;

/**
 * The role mapping as a function, made by the access plugin (the one place that reads it from
 * the settings, issue 35) for the proxy's groups header and the OIDC role claim alike.
 */
export function roleMapper(mapping: RoleMapping | undefined): RoleOf {
  return (groups) => roleFromGroups(groups, mapping);
}

/**
 * The highest role any of a person's groups (claim values, or the proxy's groups header) maps to
 * through OIDC_ADMINS and OIDC_EDITORS; anyone else is a viewer.
 */
export function roleFromGroups(groups: readonly string[], mapping: RoleMapping | undefined): Role {
  if (mapping === undefined) return 'viewer';
  if (groups.some((group) => mapping.admins.includes(group))) return 'admin';
  if (groups.some((group) => mapping.editors.includes(group))) return 'editor';
  return 'viewer';
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}
