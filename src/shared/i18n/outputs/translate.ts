import i18next from 'i18next';
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGES, type Language } from '../languages.js';
import { localCountryName } from '../local-country-name.js';
import type { outputsEn } from './en.js';
import { OUTPUTS, OUTPUTS_NAMESPACE } from './index.js';

/** "alert.watchlist", "digest.subject" (a plural's key without its `_one`/`_other`). */
type Keys<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string
    ? `${Prefix}${K extends `${infer Base}_${'one' | 'other'}` ? Base : K}`
    : Keys<T[K], `${Prefix}${K}.`>;
}[keyof T & string];
export type OutputKey = Keys<typeof outputsEn>;

/**
 * One i18next instance over the `outputs` namespace alone, made once and never switched: each
 * reader gets a fixed `t` of their language (getFixedT changes nothing shared), so concurrent
 * renders in four languages cannot disturb each other. No React: the BFF renders with it.
 */
const instance = i18next.createInstance();
void instance.init({
  resources: Object.fromEntries(
    LANGUAGES.map((language) => [language, { [OUTPUTS_NAMESPACE]: OUTPUTS[language] }]),
  ),
  ns: [OUTPUTS_NAMESPACE],
  defaultNS: OUTPUTS_NAMESPACE,
  lng: DEFAULT_LANGUAGE,
  fallbackLng: DEFAULT_LANGUAGE,
  initAsync: false,
  // Each medium escapes for itself (HTML, Slack mrkdwn, Teams Markdown, CSV): never here too.
  interpolation: { escapeValue: false },
  returnNull: false,
});

/** Arabic keeps Latin digits, as the screens do (client/lib/format.ts): scores read the same. */
const localeOf = (language: Language): string =>
  language === 'ar' ? 'ar-u-nu-latn' : language === 'en' ? 'en-GB' : language;

/** Everything a message needs to speak one reader's language. */
export interface Outputs {
  language: Language;
  t(key: OutputKey, values?: Record<string, string | number>): string;
  /** A number for people ("53.4", "53,4"); `digits` decimals when given. */
  number(value: number, digits?: number): string;
  /** An ISO time as people read it, in UTC ("29 nov. 2026, 10:00 UTC"); English: as given. */
  time(iso: string): string;
  /** A calendar day ("2026-11-29") as people read it ("29 nov. 2026"); English: as given. */
  day(isoDay: string): string;
  /** A country's name in this language (CLDR), from its alpha-2 code; English: `english`. */
  country(alpha2: string | undefined, english: string): string;
}

/** The outputs of `language` (anything we do not speak: English). */
export function outputsIn(language: string | null | undefined): Outputs {
  const chosen: Language = isLanguage(language) ? language : DEFAULT_LANGUAGE;
  const locale = localeOf(chosen);
  // Untyped on purpose: the SPA's i18next.d.ts types `t` for the screens' catalogue, and this
  // namespace is typed by `OutputKey` instead.
  const fixed = instance.getFixedT(chosen, OUTPUTS_NAMESPACE as never) as unknown as (
    key: string,
    values: Record<string, string | number>,
  ) => string;
  const times = new Intl.DateTimeFormat(locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'UTC',
  });
  const days = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
  return {
    language: chosen,
    t: (key, values) => fixed(key, values ?? {}),
    number: (value, digits) =>
      new Intl.NumberFormat(
        locale,
        digits === undefined
          ? {}
          : { minimumFractionDigits: digits, maximumFractionDigits: digits },
      ).format(value),
    // English keeps the ISO times and days its messages always carried (receivers parse them).
    time: (iso) => {
      if (chosen === 'en') return iso;
      const at = new Date(iso);
      return Number.isNaN(at.getTime()) ? iso : `${times.format(at)} UTC`;
    },
    day: (isoDay) => {
      if (chosen === 'en') return isoDay;
      const at = new Date(`${isoDay}T00:00:00Z`);
      return Number.isNaN(at.getTime()) ? isoDay : days.format(at);
    },
    country: (alpha2, english) => localCountryName(alpha2, english, chosen),
  };
}
