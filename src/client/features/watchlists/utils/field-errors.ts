/** The fields of the watchlist form that a problem can be shown next to. */
export type WatchlistField = 'name' | 'countries' | 'rules' | 'webhook_url' | 'email';

export type FieldProblems = Partial<Record<WatchlistField, string>>;

const FIELDS: readonly WatchlistField[] = ['name', 'countries', 'rules', 'webhook_url', 'email'];

/**
 * The field a server 400 is about, when its message names it: the BFF starts its words with the
 * field ("countries: XKY is not a known country code", "webhook_url must be an https:// URL",
 * "rules.0.threshold: threshold must be from 0 to 100"). Null when it names none.
 */
export function fieldOfServerProblem(message: string): WatchlistField | null {
  const head = /^([a-z_]+)\b/.exec(message)?.[1];
  return FIELDS.find((field) => field === head) ?? null;
}

const FIELD_WORDS: Record<WatchlistField, string> = {
  name: 'The name',
  countries: 'The countries',
  rules: 'The rules',
  webhook_url: 'The webhook URL',
  email: 'The e-mail address',
};

/**
 * The server's words without the API's field names, first letter up:
 * "countries: XKY is not a known country code" → "XKY is not a known country code",
 * "webhook_url must be an https:// URL" → "The webhook URL must be an https:// URL".
 */
export function problemWords(message: string): string {
  const rest = message.replace(/^[a-z_]+(?:\.\d+(?:\.[a-z_]+)?)?:\s*/, '');
  const field = fieldOfServerProblem(rest);
  const words = field ? `${FIELD_WORDS[field]}${rest.slice(field.length)}` : rest;
  return words.charAt(0).toUpperCase() + words.slice(1);
}
