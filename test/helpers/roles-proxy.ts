import type { AccessConfig } from '../../src/server/config.js';
import { Secret } from '../../src/server/secret.js';
import type { Role } from '../../src/shared/roles.js';

/*
 * Access behind an SSO proxy whose groups header names each person's role (as roles.test.ts and
 * audit.test.ts set it up), plus the dashboard token: requests from 127.0.0.1 (app.inject's
 * default) are vouched for by `as(role)`; any other address is a tool with no sign-in.
 */
const USER = 'x-forwarded-user';
const GROUPS = 'x-forwarded-groups';
const GROUP_OF: Record<Role, string> = {
  viewer: 'staff',
  editor: 'risk-editors',
  admin: 'risk-admins',
};

export const proxyRolesAccess: AccessConfig = {
  dashboardToken: new Secret('q3Jx0vTq8mZ2bYl4VdN7cR1sWk9eHu5aPf6gLi2oXy0='),
  trustedProxyAuthHeader: USER,
  trustedProxyGroupsHeader: GROUPS,
  trustedProxyAddresses: ['127.0.0.1'],
  roles: { editors: ['risk-editors'], admins: ['risk-admins'] },
  allowAnonymous: false,
};

/**
 * Access behind an SSO proxy that names each person and sends no groups (everyone gets the
 * default role), with no dashboard token: requests from 127.0.0.1 (app.inject's default) carry
 * the person in `x-forwarded-user`; the header is believed from the proxy's address only.
 */
export const proxyUserAccess: AccessConfig = {
  dashboardToken: null,
  trustedProxyAuthHeader: USER,
  trustedProxyAddresses: ['127.0.0.1'],
  allowAnonymous: false,
};

/** The proxy's headers for someone of `role`. */
export function as(role: Role): Record<string, string> {
  return { [USER]: `${role}-person`, [GROUPS]: GROUP_OF[role] };
}
