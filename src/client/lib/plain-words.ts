import { t } from './i18n';

/**
 * The BFF's reasons and errors name its own machinery ("request reserve", "upstream budget",
 * "held back", "replica's share"): right for logs and the API, not for a reader. Those are said
 * in plain words on screen, in the page's language; any other message is shown as sent.
 */
const PLAIN = [
  [/held back|reserve/i, 'problems.plainHeldBack'],
  [/budget|upstream quota|share of/i, 'problems.plainBudget'],
] as const;

export function plainWords(message: string): string {
  const key = PLAIN.find(([pattern]) => pattern.test(message))?.[1];
  return key ? t(key) : message;
}
