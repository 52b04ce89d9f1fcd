/*
 * The audit log in plain words (issue 33, point 13). The store keeps each entry's action as the
 * hook wrote it (the route, "PUT /api/watchlists/:id", or a route's own words, "sign-in"); the
 * page and the spreadsheet say it as a sentence, "Alice imported 40 sites". Kept here, not in the
 * store, so entries written before this read the same way and the action filter stays exact.
 * The words are the `admin` area's messages (issue 34): the page says them in its language
 * through its `t`, the spreadsheet's cells in English (shared/i18n/en/admin.ts).
 */
import { enAdmin } from './i18n/en/admin.js';

/** Each recorded action, in the order the page's filter lists them, with its message's key. */
export const AUDIT_ACTIONS = [
  { action: 'sign-in', key: 'signIn' },
  { action: 'sign-in failed', key: 'signInFailed' },
  { action: 'sign-out', key: 'signOut' },
  { action: 'POST /api/sites/import', key: 'sitesImported' },
  { action: 'POST /api/sites', key: 'siteAdded' },
  { action: 'PUT /api/sites/:id', key: 'siteChanged' },
  { action: 'DELETE /api/sites/:id', key: 'siteRemoved' },
  { action: 'PUT /api/sites/alert-delivery', key: 'siteDelivery' },
  { action: 'POST /api/watchlists', key: 'watchlistCreated' },
  { action: 'PUT /api/watchlists/:id', key: 'watchlistChanged' },
  { action: 'DELETE /api/watchlists/:id', key: 'watchlistDeleted' },
  { action: 'POST /api/watchlists/:id/test', key: 'testAlert' },
  { action: 'POST /api/alerts/read', key: 'alertsRead' },
  { action: 'POST /api/alerts/:id/acknowledgement', key: 'alertAcknowledged' },
  { action: 'PUT /api/me/settings', key: 'ownSettings' },
  { action: 'POST /api/status/check', key: 'checkNow' },
  { action: 'API token created', key: 'apiTokenCreated' },
  { action: 'API token revoked', key: 'apiTokenRevoked' },
  { action: 'session revoked', key: 'sessionEnded' },
  // The team's own view of risk and the provider's method changes (issue 31).
  { action: 'team index weights set', key: 'weightsSet' },
  { action: 'override set', key: 'overrideSet' },
  { action: 'override changed', key: 'overrideChanged' },
  { action: 'override ended', key: 'overrideEnded' },
  { action: 'method change marked comparable', key: 'methodComparable' },
  { action: 'country note written', key: 'noteWritten' },
  { action: 'country note edited', key: 'noteEdited' },
  { action: 'country note deleted', key: 'noteDeleted' },
  // Reach (issue 34): embeds and feed tokens.
  { action: 'embed created', key: 'embedCreated' },
  { action: 'embed revoked', key: 'embedRevoked' },
  { action: 'feed token created', key: 'feedTokenCreated' },
  { action: 'feed token revoked', key: 'feedTokenRevoked' },
] as const satisfies ReadonlyArray<{ action: string; key: string }>;

export type AuditActionKey = (typeof AUDIT_ACTIONS)[number]['key'];
/** `action_signIn`…: the action's message in the `admin` area. */
export type AuditActionMessage = `action_${AuditActionKey}`;

const KEYS = new Map<string, AuditActionKey>(AUDIT_ACTIONS.map((item) => [item.action, item.key]));

/**
 * Says one of the `admin` area's messages (a key without `admin.`): the page passes its `t`,
 * whose plurals follow CLDR; English is the default, for the spreadsheet's cells.
 */
export type AuditSay = (key: string, values?: Record<string, string | number>) => string;

const ENGLISH = enAdmin as Readonly<Record<string, string>>;
export const sayInEnglish: AuditSay = (key, values = {}) => {
  const count = values.count;
  const plural = typeof count === 'number' ? `${key}_${count === 1 ? 'one' : 'other'}` : key;
  const text = ENGLISH[plural] ?? ENGLISH[key] ?? key;
  return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? ''));
};

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
function importWords(after: unknown, say: AuditSay, number: (n: number) => string): string | null {
  const created = field(after, 'created');
  const updated = field(after, 'updated');
  if (!Array.isArray(created) || !Array.isArray(updated)) return null;
  const count = created.length + updated.length;
  return say('importedCount', { count, shown: number(count) });
}

/** The action's words ("changed a watchlist"); an action this list does not know, as stored. */
export function auditActionWords(action: string, say: AuditSay = sayInEnglish): string {
  const key = KEYS.get(action);
  return key ? say(`action_${key}`) : action;
}

/**
 * "Alice imported 40 sites"; a refused write, "Vic was refused: created an API token". `number`
 * writes the import's count in the reader's digits (English: as JavaScript writes it).
 */
export function auditSentence(
  entry: WordedEntry,
  say: AuditSay = sayInEnglish,
  number: (n: number) => string = String,
): string {
  const done = entry.status < 400;
  const words =
    (done && entry.action === 'POST /api/sites/import'
      ? importWords(entry.after, say, number)
      : null) ?? auditActionWords(entry.action, say);
  const who = entry.who.name;
  if (done || entry.action === 'sign-in failed') return say('sentence', { who, words });
  return say('sentenceRefused', { who, words });
}
