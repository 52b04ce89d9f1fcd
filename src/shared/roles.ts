import { z } from 'zod/mini';

/** Who may do what (issue 21), lowest first: each role may do everything the ones before it may. */
export const ROLES = ['viewer', 'editor', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** True when `role` may do what `needed` may. */
export function roleAtLeast(role: Role, needed: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(needed);
}

export { OPEN_ACCESS_NAME } from './open-access.js';

/** How someone got in: the words `/api/me` answers with. */
export const SIGN_IN_METHODS = ['oidc', 'proxy', 'dashboard-token', 'api-token', 'open'] as const;

/** `GET /api/me`: who is asking, their role, and how they signed in. */
export const meSchema = z.object({
  ok: z.literal(true),
  name: z.string(),
  email: z.nullable(z.string()),
  role: z.enum(ROLES),
  via: z.enum(SIGN_IN_METHODS),
  /** Where a browser signs out (a form POST), or null when signing out is not a thing here. */
  sign_out: z.nullable(z.string()),
});
export type Me = z.infer<typeof meSchema>;
