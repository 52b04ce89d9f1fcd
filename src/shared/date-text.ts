import { numberLocale } from './number-text.js';

/**
 * Dates as the screens write them, shared by the SPA (client/lib/format.ts) and the server's first
 * frame (services/rendering/frame-words.ts), as numbers are (number-text.ts): what the frame says
 * is what the SPA says when it takes over. Times are UTC, the clock the batches run on.
 */

/** `en-GB`'s short months, written without Intl (see number-text.ts for why). */
const MONTHS = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sept',
  'Oct',
  'Nov',
  'Dec',
];

/** "Jun": a date's month as `en-GB` writes it short (UTC). */
export const shortMonth = (date: Date): string => MONTHS[date.getUTCMonth()]!;

const twoDigits = (value: number): string => String(value).padStart(2, '0');

/** "10:00": the UTC clock of a date. */
export const utcClock = (date: Date): string =>
  `${twoDigits(date.getUTCHours())}:${twoDigits(date.getUTCMinutes())}`;

/**
 * How a language writes a date and time: "2 Jun 2025, 10:00 UTC". English without Intl; Arabic
 * with the day as Arabic writes it reading right to left and the clock with its zone after it as
 * one left-to-right piece, isolated (U+2067 RLI … U+2069 PDI) so the sentence around it cannot
 * reorder it ("2 يونيو 2026، 10:00 UTC"); the others through Intl with their own conventions.
 * Made once per language: the Intl formatter is built here, not per date.
 */
export function utcDateTimes(language: string): (date: Date) => string {
  const locale = numberLocale(language);
  if (language === 'ar') {
    const day = new Intl.DateTimeFormat(locale, {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    });
    return (date) => `\u2067${day.format(date)}، \u2066${utcClock(date)} UTC\u2069\u2069`;
  }
  if (locale === 'en-GB') {
    return (date) =>
      `${date.getUTCDate()} ${shortMonth(date)} ${date.getUTCFullYear()}, ` +
      `${utcClock(date)} UTC`;
  }
  const format = new Intl.DateTimeFormat(locale, {
    ...{ day: 'numeric', month: 'short', year: 'numeric' },
    ...{ hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' },
  });
  return (date) => `${format.format(date)} UTC`;
}
