import i18next from 'i18next';
import { LRUCache } from 'lru-cache';
import countryCodes from 'i18n-iso-countries';
import { fixedNumbers, numberLocale } from '../../../shared/number-text.js';
import { relativeWords } from '../../../shared/relative-time.js';
import { utcClock, utcDateTimes } from '../../../shared/date-text.js';
import type { StatusWords } from '../../../shared/status-lines.js';
import { localCountryName } from '../../../shared/i18n/local-country-name.js';
import { displayName } from '../reference/display-names.js';
import {
  CATALOGUES,
  DEFAULT_LANGUAGE,
  LANGUAGES,
  type Language,
} from '../../../shared/i18n/index.js';

/**
 * The words and numbers of a first frame (issue 32), in the page's language: the screens' own
 * catalogues (shared/i18n), so the frame says what the SPA will say where it takes over. One
 * i18next instance, never switched: each frame gets a fixed `t` of its language.
 */
const instance = i18next.createInstance();
void instance.init({
  resources: Object.fromEntries(
    LANGUAGES.map((language) => [language, { translation: CATALOGUES[language] }]),
  ),
  lng: DEFAULT_LANGUAGE,
  fallbackLng: DEFAULT_LANGUAGE,
  initAsync: false,
  // The frame escapes every value itself (escapeHtml), after translation.
  interpolation: { escapeValue: false },
  returnNull: false,
});

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

export const finite = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

/** What a frame writes with: every result is already escaped HTML text. */
export interface FrameWords {
  language: Language;
  /** A catalogue message, escaped. */
  t(key: string, values?: Record<string, string | number>): string;
  /** "49.29" ("49,29" in French); "n/a" when not a number. */
  score(value: unknown, digits?: number): string;
  /** "+1.20", "−0.50", "0.00" (a true minus sign), as the screens write a change. */
  signed(value: unknown): string;
  /** "03:00 UTC": the clock of an ISO time (the screens add how long ago, which ages). */
  clock(value: unknown): string;
  /** "30 Nov 03:00 UTC", short enough for a line on a phone. */
  when(value: unknown): string;
  /** A country's name as the screens show it (common, in the page's language), escaped. */
  country(iso: unknown, dataName: unknown): string;
  /** An API label made readable ("armed_conflict" → "Armed conflict"), as the screens do. */
  humanise(label: unknown): string;
  /** "8 min ago", "in 5 h", as the screens say it (shared/relative-time.ts). */
  relative(value: unknown, now: number): string;
  /**
   * "03:00 UTC · 2 h ago", "28 Nov 2026, 10:00 UTC · 2 d ago" (the date when it is not within
   * 20 h): the screens' formatWhen.
   */
  whenFrom(value: unknown, now: number): string;
  /** The status banner's words as plain text (shared/status-lines.ts): its caller escapes. */
  status: StatusWords;
}

/** An ISO time read, or null when it is none. */
function timeOf(value: unknown): Date | null {
  const at = new Date(String(value ?? ''));
  return Number.isNaN(at.getTime()) ? null : at;
}

/** Messages kept per language and use (HTML or plain): more than the catalogue has keys (1,531). */
export const MESSAGES_KEPT = 2_000;
/** And at most this many characters of keys and texts together (values are upstream text): about
 * 4 MB at most for the four languages and two uses. */
const MESSAGE_CHARS_KEPT = 250_000;

type Values = Record<string, string | number>;

/**
 * `write`, each message's text kept after its first page: by key, and by its values for one
 * with values. A page writes dozens of messages (title bar, navigation, banner, header, the
 * header's figures and tier), the same text on every page of a batch: i18next's lookup was a
 * third of a framed page's CPU. The least recently used go first past `limit` messages or
 * MESSAGE_CHARS_KEPT characters, so a key or value made from upstream text cannot grow it
 * without end.
 */
export function keptMessages(
  write: (key: string, values?: Values) => string,
  limit = MESSAGES_KEPT,
): (key: string, values?: Values) => string {
  const kept = new LRUCache<string, string>({
    max: limit,
    maxSize: MESSAGE_CHARS_KEPT,
    sizeCalculation: (text, id) => text.length + id.length + 1,
  });
  return (key, values) => {
    const id = values === undefined ? key : `${key}\u0000${JSON.stringify(values)}`;
    let text = kept.get(id);
    if (text === undefined) {
      text = write(key, values);
      kept.set(id, text);
    }
    return text;
  };
}

export function frameWords(language: Language): FrameWords {
  const fixed = instance.getFixedT(language) as unknown as (
    key: string,
    values?: Record<string, string | number>,
  ) => string;
  const locale = numberLocale(language);
  // Numbers as the screens write them in this language (the SPA's own formatter).
  const format = fixedNumbers(locale);
  const na = escapeHtml(fixed('format.na'));
  const dayMonth = new Intl.DateTimeFormat(locale, {
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  });
  // Arabic keeps "03:00 UTC" left to right as one piece, as the screens do (lib/format.ts).
  const ltr = (text: string): string => (language === 'ar' ? `\u2066${text}\u2069` : text);
  const clockOf = (at: Date): string => ltr(`${utcClock(at)} UTC`);
  const relativeOf = (at: Date, now: number): string =>
    relativeWords(at, now, language === 'en' ? null : locale);
  const dateTimes = utcDateTimes(language);
  const plain = (write: (at: Date) => string) => (value: unknown) => {
    const at = timeOf(value);
    return at ? write(at) : fixed('format.na');
  };
  const message = keptMessages((key, values) => escapeHtml(fixed(key, values)));
  const plainMessage = keptMessages(fixed);
  return {
    language,
    t: message,
    score: (value, digits = 2) => {
      const n = finite(value);
      return n === null ? na : escapeHtml(format(n, digits));
    },
    signed: (value) => {
      const n = finite(value);
      if (n === null) return na;
      const text = format(Math.abs(n), 2);
      if (text === format(0, 2)) return escapeHtml(text);
      return escapeHtml(n > 0 ? `+${text}` : `\u2212${text}`);
    },
    clock: (value) => {
      const at = timeOf(value);
      return at ? clockOf(at) : na;
    },
    when: (value) => {
      const at = timeOf(value);
      return at ? escapeHtml(`${dayMonth.format(at)} ${clockOf(at)}`) : na;
    },
    country: (iso, dataName) => {
      const code = String(iso ?? '').toUpperCase();
      const english = displayName(code, typeof dataName === 'string' ? dataName : null);
      const alpha2 = /^[A-Z]{3}$/.test(code) ? countryCodes.alpha3ToAlpha2(code) : undefined;
      return escapeHtml(localCountryName(alpha2, english, language));
    },
    humanise: (label) => {
      const words = typeof label === 'string' ? label.replace(/[_-]+/g, ' ').trim() : '';
      return words ? escapeHtml(words.charAt(0).toUpperCase() + words.slice(1)) : na;
    },
    relative: (value, now) => {
      const at = timeOf(value);
      return at ? escapeHtml(relativeOf(at, now)) : na;
    },
    whenFrom(value, now) {
      const at = timeOf(value);
      if (!at) return na;
      const sameDay = Math.abs(at.getTime() - now) < 20 * 60 * 60_000;
      // The date as the screens write it, with its year (a shorter one wrapped the line
      // differently and moved the page when the SPA took over).
      const clock = sameDay ? clockOf(at) : escapeHtml(dateTimes(at));
      return `${clock} · ${this.relative(value, now)}`;
    },
    status: {
      t: plainMessage,
      dateTime: plain(dateTimes),
      time: plain(clockOf),
      relative: (value, now) => plain((at) => relativeOf(at, now))(value),
    },
  };
}
