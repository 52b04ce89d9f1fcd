import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { ReachRow } from '../../store/reach.js';
import { ApiProblem } from '../api-problem.js';
import { hasControlOrBidi } from '../identity/plain-text.js';

/*
 * What feed tokens and embeds share with API tokens (services/identity/api-tokens.ts): a random
 * 256-bit secret shown once, only its SHA-256 kept, a name an admin gives, an expiry in days.
 */

export function hashOf(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** `prefix` + 32 random bytes, base64url: the prefix tells the kind of credential at a glance. */
export function newSecret(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

export const nameField = z
  .string({ error: 'name must be text' })
  .trim()
  .min(1, 'name must not be empty')
  .max(100, 'name may have at most 100 characters')
  // The name reaches the audit log, the admin's pages and embedded pages: no line breaks or bidi.
  .refine(
    (name) => !hasControlOrBidi(name),
    'name must not contain control characters or bidirectional-text controls',
  );

export const expiresField = z
  .number({ error: 'expires_in_days must be a whole number of days' })
  .int('expires_in_days must be a whole number of days')
  .min(1, 'expires_in_days must be at least 1')
  .max(365, 'expires_in_days may be at most 365');

/** The route's `:id`, or a 400 naming it. */
export function idOf(raw: string, what: string): number {
  if (!/^[1-9]\d{0,14}$/.test(raw))
    throw new ApiProblem(400, `The ${what} id must be a number such as "12"`);
  return Number(raw);
}

/** Why a known row is not live, in words for a 403 ("revoked", "expired"), or null if live. */
export function whyNotLive(row: ReachRow, now: number): string | null {
  if (row.revokedAt !== null) return `revoked on ${new Date(row.revokedAt).toISOString()}`;
  if (row.expiresAt <= now) return `expired on ${new Date(row.expiresAt).toISOString()}`;
  return null;
}

/** The fields every listing shows (never the secret, never its hash). */
export function baseView(row: ReachRow) {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    id: String(row.id),
    name: row.name,
    created_at: iso(row.createdAt),
    created_by: row.createdBy,
    expires_at: iso(row.expiresAt),
    last_used_at: iso(row.lastUsedAt),
    uses: row.uses,
  };
}
