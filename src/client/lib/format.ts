import { en } from '../../shared/i18n/en';
import { PSEUDO } from '../../shared/i18n/languages';
import { pseudoMessage } from '../../shared/i18n/pseudo';
import { fixedNumbers, numberLocale } from '../../shared/number-text';
import { relativeWords } from '../../shared/relative-time';
import { shortMonth, utcClock, utcDateTimes } from '../../shared/date-text';
/**
 * Formatting for people. Missing values read "n/a" everywhere (the API's optional fields may be
 * absent or null); times are shown in UTC, the clock the data's batches run on.
 */
let naText: string = en.format.na;
/**
 * "n/a" of a loaded language: lib/i18n.ts tells it (the other languages' catalogues load on
 * demand); English until then.
 */
let naOf: (language: string) => string | undefined = () => undefined;
export function setNaSource(source: (language: string) => string | undefined): void {
  naOf = source;
}
/** "n/a" in the page's language (set with it below; "⟦ñ/à⟧" in the pseudo-locale). */
export function na(): string {
  return naText;
}

/**
 * The language numbers and dates are written in (issue 34), set with the interface's language
 * (lib/i18n.ts). English keeps the Intl-free fast path below; the others go through Intl with
 * their own CLDR conventions. Arabic keeps Latin digits (`-u-nu-latn`): the map's and charts'
 * labels are in Latin digits too, and scores compared across them must read the same.
 */
let formatLocale = 'en-GB';
/**
 * Numbers in that locale (src/shared/number-text.ts, shared with the server's first frame):
 * `en-GB` without Intl, whose first object costs Chromium 13–25 ms (docs/benchmarks.md, section
 * 3); test/client/formatting.test.ts compares the two over thousands of values.
 */
let fixedNumber = fixedNumbers(formatLocale);
let language = 'en';
/** Made at the first date written in a language (its Intl formatter with it). */
let dateTimes: ((date: Date) => string) | null = null;
let axisDayFormat: Intl.DateTimeFormat | null = null;
export function setFormatLanguage(next: string): void {
  language = next;
  naText = next === PSEUDO ? pseudoMessage(en.format.na) : (naOf(next) ?? en.format.na);
  const locale = numberLocale(language);
  if (locale === formatLocale) return;
  formatLocale = locale;
  fixedNumber = fixedNumbers(locale);
  dateTimes = null;
  axisDayFormat = null;
}
/** The interface's language as set (`en`, `fr`, `ar`, `en-XA`…). */
export function formatLanguage(): string {
  return language;
}
/** The locale Intl formats in (`en-GB`, `fr`, `ar-u-nu-latn`…), for formatters elsewhere. */
export function activeFormatLocale(): string {
  return formatLocale;
}
const fastPath = (): boolean => formatLocale === 'en-GB';

function isNumber(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** A score with a fixed number of decimals (risk: 2), or "n/a". */
export function formatScore(value: number | null | undefined, digits = 2): string {
  return isNumber(value) ? fixedNumber(value, digits) : na();
}

export function formatInteger(value: number | null | undefined): string {
  return isNumber(value) ? fixedNumber(value, 0) : na();
}

/** A signed change: "+1.20", "−0.50" (true minus sign), "0.00". */
export function formatSigned(value: number | null | undefined, digits = 2): string {
  if (!isNumber(value)) return na();
  const text = fixedNumber(Math.abs(value), digits);
  const zero = fixedNumber(0, digits);
  if (text === zero) return zero;
  return value > 0 ? `+${text}` : `\u2212${text}`;
}

export type Direction = 'up' | 'down' | 'flat' | 'unknown';

/** Direction of a change as shown (a change that rounds to zero is flat). */
export function direction(value: number | null | undefined, digits = 2): Direction {
  if (!isNumber(value)) return 'unknown';
  const rounded = Number(value.toFixed(digits));
  return rounded > 0 ? 'up' : rounded < 0 ? 'down' : 'flat';
}

/** `snake_case` or `kebab-case` labels from the API, made readable; never interpreted. */
export function humanise(label: string | null | undefined): string {
  if (!label) return na();
  const words = label.replace(/[_-]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : na();
}

function parseTime(iso: string | null | undefined): Date | null {
  if (!iso) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * Left-to-right text kept in its order inside a right-to-left line (U+2066 LRI … U+2069 PDI,
 * what <bdi dir="ltr"> does, for strings): "10:00 UTC" does not become "UTC 10:00" in Arabic.
 */
function keepLtr(text: string): string {
  return language === 'ar' ? `\u2066${text}\u2069` : text;
}

/** "10:00 UTC" */
export function formatUtcTime(iso: string | null | undefined): string {
  const date = parseTime(iso);
  return date ? keepLtr(`${utcClock(date)} UTC`) : na();
}

/** "2 Jun 2025, 10:00 UTC" (shared/date-text.ts, which the server's first frame writes with). */
export function formatUtcDateTime(iso: string | null | undefined): string {
  const date = parseTime(iso);
  if (!date) return na();
  dateTimes ??= utcDateTimes(language);
  const text = dateTimes(date);
  // The pseudo-locale marks the month too: it is the locale's word, not a hard-coded one.
  return language === PSEUDO ? pseudoMessage(text) : text;
}

/**
 * "2 Jun" (UTC): a chart axis's day, in the page language ("2 juin", "2 يونيو"), so a French or
 * Arabic axis does not read in English months. `ms` is epoch milliseconds, as recharts gives.
 */
export function formatUtcDay(ms: number): string {
  const date = new Date(ms);
  if (Number.isNaN(date.getTime())) return na();
  if (fastPath()) return `${date.getUTCDate()} ${shortMonth(date)}`;
  axisDayFormat ??= new Intl.DateTimeFormat(formatLocale, {
    timeZone: 'UTC',
    day: 'numeric',
    month: 'short',
  });
  return axisDayFormat.format(date);
}

/** "just now", "5 min ago", "2 h ago", "3 d ago"; "in 40 min" for the future. */
export function formatRelative(iso: string | null | undefined, now: number = Date.now()): string {
  const text = relativeText(iso, now);
  // The pseudo-locale marks these English words too: they are the locale's, not hard-coded.
  return language === PSEUDO && text !== naText ? pseudoMessage(text) : text;
}

function relativeText(iso: string | null | undefined, now: number): string {
  const date = parseTime(iso);
  if (!date) return na();
  return relativeWords(date, now, fastPath() ? null : formatLocale);
}

/** "10:00 UTC · 2 h ago": the clock time and how long ago, as analysts read batch times. */
export function formatWhen(iso: string | null | undefined, now: number = Date.now()): string {
  const date = parseTime(iso);
  if (!date) return na();
  const sameDay = Math.abs(date.getTime() - now) < 20 * 60 * 60_000;
  const clock = sameDay ? formatUtcTime(iso) : formatUtcDateTime(iso);
  return `${clock} · ${formatRelative(iso, now)}`;
}

/** For sorting events: newest first, unreadable timestamps last. */
export function timeValue(iso: string | null | undefined): number {
  return parseTime(iso)?.getTime() ?? Number.NEGATIVE_INFINITY;
}

/** Case- and accent-insensitive text for search ("cote" finds "Côte d'Ivoire"). */
export function searchKey(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

/** "Iran, Iraq and Syria" in the active language ("Iran, Iraq et Syrie"). */
export function formatList(items: readonly string[]): string {
  return new Intl.ListFormat(formatLocale, { style: 'long', type: 'conjunction' }).format(items);
}
