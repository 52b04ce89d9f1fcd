/**
 * The interface's languages (issue 34) and how one is chosen. Pure: the SPA resolves with
 * `navigator.languages`, the BFF with the Accept-Language header, both with the same rules.
 */
export const LANGUAGES = ['en', 'fr', 'es', 'ar'] as const;
export type Language = (typeof LANGUAGES)[number];

/**
 * The pseudo-locale: English with every message marked and accented, so a test can see a string
 * that never went through the catalogue. Only reachable with `?lang=en-XA` when the build allows
 * it (dev and test), never from a setting or a browser's languages.
 */
export const PSEUDO = 'en-XA';
export type UiLanguage = Language | typeof PSEUDO;

export const DEFAULT_LANGUAGE: Language = 'en';

/** Each language's own name, as its readers write it (the picker lists them so). */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = {
  en: 'English',
  fr: 'Français',
  es: 'Español',
  ar: 'العربية',
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** Right to left for Arabic; everything else reads left to right. */
export function directionOf(language: UiLanguage): 'ltr' | 'rtl' {
  return language === 'ar' ? 'rtl' : 'ltr';
}

/** A BCP 47 tag ("fr-CA", "AR") reduced to one of ours, or null ("de", "x-bogus"). */
export function matchLanguage(tag: string): Language | null {
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return isLanguage(primary) ? primary : null;
}

/** Beyond this many entries an Accept-Language header is read no further (it is untrusted). */
const MAX_RANGES = 32;

/**
 * The tags of an Accept-Language header, best first by q-value (RFC 9110 §12.5.4; equal
 * weights keep the header's order, q=0 means "not this one"). Malformed entries are skipped.
 */
export function parseAcceptLanguage(header: string | null | undefined): string[] {
  if (!header) return [];
  const ranges: { tag: string; q: number; at: number }[] = [];
  for (const [at, part] of header.slice(0, 1024).split(',').slice(0, MAX_RANGES).entries()) {
    const [rawTag, ...params] = part.trim().split(';');
    const tag = rawTag?.trim() ?? '';
    if (!/^(?:\*|[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*)$/.test(tag)) continue;
    let q = 1;
    for (const param of params) {
      const match = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(param);
      if (match) q = Math.min(1, Number(match[1]));
      else if (/^\s*q\s*=/i.test(param)) q = -1;
    }
    if (q > 0) ranges.push({ tag, q, at });
  }
  return ranges.sort((a, b) => b.q - a.q || a.at - b.at).map((range) => range.tag);
}

/** The first of `tags` (best first) that we speak, or null. */
export function firstSpoken(tags: readonly string[]): Language | null {
  for (const tag of tags) {
    const language = matchLanguage(tag);
    if (language) return language;
  }
  return null;
}

export interface LanguageSources {
  /** `?lang=` of the URL: a shared link carries its language and wins over everything. */
  query?: string | null;
  /** The person's saved setting (null: none saved, or nobody signed in). */
  setting?: string | null;
  /** The browser's preferences, best first (navigator.languages, or a parsed Accept-Language). */
  browser?: readonly string[];
  /** Whether `?lang=en-XA` is honoured (dev and test builds only). */
  allowPseudo?: boolean;
}

/**
 * The language a page is shown in: `?lang=` when it names one of ours, else the person's
 * setting, else the browser's first language we speak, else English. An unknown `?lang=` gives
 * English (never an error page): the link names a language, just not one of ours.
 */
export function resolveLanguage(sources: LanguageSources): UiLanguage {
  const query = sources.query?.trim();
  if (query && sources.allowPseudo && query.toLowerCase() === PSEUDO.toLowerCase()) return PSEUDO;
  if (query) return matchLanguage(query) ?? DEFAULT_LANGUAGE;
  if (isLanguage(sources.setting)) return sources.setting;
  return firstSpoken(sources.browser ?? []) ?? DEFAULT_LANGUAGE;
}
