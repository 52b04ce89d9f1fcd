import { directionOf, type UiLanguage } from '../../shared/i18n/languages';
import { formatLanguage } from './format';

/**
 * Left-to-right text kept in its order inside a right-to-left page (U+2066 LRI … U+2069 PDI,
 * what <bdi dir="ltr"> does, for strings): "+12.4" keeps its sign in front, "10:00 UTC" does not
 * become "UTC 10:00". Unchanged in a left-to-right page.
 */
export function isolateLtr(text: string): string {
  return directionOf(formatLanguage() as UiLanguage) === 'rtl' ? `\u2066${text}\u2069` : text;
}

/**
 * "2026-11-29 10:00 UTC": the minute an alert's batch, an acknowledgement or a paused webhook
 * happened, as the delivery log and the audit log keep it. Digits and "UTC" read the same in
 * every language (people compare them with the log); in Arabic the time is isolated left to
 * right.
 */
export function utcMinute(iso: string): string {
  return isolateLtr(`${iso.slice(0, 16).replace('T', ' ')} UTC`);
}
