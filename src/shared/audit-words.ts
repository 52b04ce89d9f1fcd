/*
 * The audit log in plain words (issue 33, point 13). The store keeps each entry's action as the
 * hook wrote it (the route, "PUT /api/watchlists/:id", or a route's own words, "sign-in"); the
 * page and the spreadsheet say it as a sentence, "Alice imported 40 sites". Kept here, not in the
 * store, so entries written before this read the same way and the action filter stays exact.
 */

/** Each recorded action, in the order the page's filter lists them, with its words. */
export const AUDIT_ACTIONS: ReadonlyArray<{ action: string; words: string }> = [
  { action: 'sign-in', words: 'signed in' },
  { action: 'sign-in failed', words: 'failed to sign in' },
  { action: 'sign-out', words: 'signed out' },
  { action: 'POST /api/sites/import', words: 'imported sites' },
  { action: 'POST /api/sites', words: 'added a site' },
  { action: 'PUT /api/sites/:id', words: 'changed a site' },
  { action: 'DELETE /api/sites/:id', words: 'removed a site' },
  { action: 'PUT /api/sites/alert-delivery', words: 'changed where site alerts are sent' },
  { action: 'POST /api/watchlists', words: 'created a watchlist' },
  { action: 'PUT /api/watchlists/:id', words: 'changed a watchlist' },
  { action: 'DELETE /api/watchlists/:id', words: 'deleted a watchlist' },
  { action: 'POST /api/watchlists/:id/test', words: 'sent a test alert' },
  { action: 'POST /api/alerts/read', words: 'marked alerts as read' },
  { action: 'POST /api/alerts/:id/acknowledgement', words: 'acknowledged an alert' },
  { action: 'PUT /api/me/settings', words: 'changed their own settings' },
  { action: 'POST /api/status/check', words: 'asked for an upstream check now' },
  { action: 'API token created', words: 'created an API token' },
  { action: 'API token revoked', words: 'revoked an API token' },
  { action: 'session revoked', words: 'ended a session' },
];

const WORDS = new Map(AUDIT_ACTIONS.map((item) => [item.action, item.words]));

/** What an entry says about itself, as the sentence needs it. */
export interface WordedEntry {
  who: { name: string };
  action: string;
  status: number;
  after: unknown;
}

function field(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object'
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

/** "imported 40 sites": an import's count is its created and updated rows (its answer). */
function importWords(after: unknown): string | null {
  const created = field(after, 'created');
  const updated = field(after, 'updated');
  if (!Array.isArray(created) || !Array.isArray(updated)) return null;
  const count = created.length + updated.length;
  return `imported ${count} site${count === 1 ? '' : 's'}`;
}

/** The action's words ("changed a watchlist"); an action this list does not know, as stored. */
export function auditActionWords(action: string): string {
  return WORDS.get(action) ?? action;
}

/** "Alice imported 40 sites"; a refused write, "Vic was refused: created an API token". */
export function auditSentence(entry: WordedEntry): string {
  const done = entry.status < 400;
  const words =
    (done && entry.action === 'POST /api/sites/import' ? importWords(entry.after) : null) ??
    auditActionWords(entry.action);
  if (done || entry.action === 'sign-in failed') return `${entry.who.name} ${words}`;
  return `${entry.who.name} was refused: ${words}`;
}
