import { PSEUDO } from './languages.js';
import { pseudoMessage } from './pseudo.js';

/** One `Intl.DisplayNames` per language (four, and the pseudo-locale): made once, reused. */
const regionNames = new Map<string, Intl.DisplayNames | null>();

/**
 * The country's name in `language` from CLDR (`Intl.DisplayNames`, by its alpha-2 code), or
 * `fallback` (the English display name) for English, for codes without an alpha-2 (Kosovo's XKX)
 * and where the runtime has no name. The SPA finds the alpha-2 code in its build-time table, the
 * BFF in i18n-iso-countries; both name a country the same way (issue 34).
 */
export function localCountryName(
  alpha2: string | undefined,
  fallback: string,
  language: string,
): string {
  // The pseudo-locale marks names too: they come through here, not as hard-coded English.
  if (language === PSEUDO) return pseudoMessage(fallback);
  if (language.startsWith('en')) return fallback;
  if (!alpha2) return fallback;
  if (!regionNames.has(language)) {
    let names: Intl.DisplayNames | null;
    try {
      names = new Intl.DisplayNames([language], { type: 'region', fallback: 'none' });
    } catch {
      // A runtime without this language's data: the English name rather than no name.
      names = null;
    }
    regionNames.set(language, names);
  }
  return regionNames.get(language)?.of(alpha2) ?? fallback;
}
