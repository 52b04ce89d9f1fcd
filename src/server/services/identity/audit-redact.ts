/*
 * What an audit entry may keep of an object: its JSON without secrets, and bounded. Secrets are
 * recognised by their key (webhook secrets, token secrets and hashes, session ids, passwords)
 * and by their form (our token and webhook-secret prefixes), so a new field named so is dropped
 * without anyone remembering to.
 */

/** Keys whose values are never kept. */
const SECRET_KEY = /secret|password|passwd|hash|cookie|authorization|^id_token$|^session_id$/i;
/** Values that are secrets whatever their key: API tokens (grd_) and webhook secrets (whsec_). */
const SECRET_VALUE = /^(grd_|whsec_)/;
/** One side of an entry is at most this much JSON; a larger one is kept as its size only. */
export const AUDIT_JSON_MAX_BYTES = 32 * 1024;
const MAX_DEPTH = 12;

function scrub(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return SECRET_VALUE.test(value) ? '[secret]' : value;
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[nested too deep]';
  if (Array.isArray(value)) return value.map((item) => scrub(item, depth + 1));
  const kept: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (!SECRET_KEY.test(key)) kept[key] = scrub(item, depth + 1);
  }
  return kept;
}

/** The value without its secrets, or `{truncated: true, bytes}` when its JSON is too large. */
export function withoutSecrets(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  const kept = scrub(value, 0);
  const bytes = Buffer.byteLength(JSON.stringify(kept) ?? '');
  return bytes > AUDIT_JSON_MAX_BYTES ? { truncated: true, bytes } : kept;
}
