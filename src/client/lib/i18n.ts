import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en, type Catalogue } from '../../shared/i18n/en';
import {
  DEFAULT_LANGUAGE,
  directionOf,
  PSEUDO,
  resolveLanguage,
  type Language,
  type LanguageSources,
  type UiLanguage,
} from '../../shared/i18n/languages';
import { pseudoCatalogue } from '../../shared/i18n/pseudo';
import { setFormatLanguage, setNaSource } from './format';

/**
 * The pseudo-locale is for development and tests only (`?lang=en-XA`): a production page honours
 * it only when a browser test set `window.__pseudoLocale` before the page's scripts ran
 * (Playwright's addInitScript), so nobody meets "⟦Ĝĺöƀàĺ…⟧" by following a link.
 */
export const PSEUDO_ALLOWED =
  import.meta.env.DEV ||
  import.meta.env.MODE === 'test' ||
  (globalThis as { __pseudoLocale?: unknown }).__pseudoLocale === true;

/**
 * The other languages' messages, each its own chunk, fetched when a page first needs it: with
 * all four in the first script the overview's initial JavaScript went over its 200 KB budget
 * (208 KB gzip, issue 32), and a reader needs one language. English is bundled (the fallback of
 * every message, and what the jsdom tests render in); so is the pseudo-locale made from it.
 */
const LOADERS: Readonly<Record<Exclude<Language, 'en'>, () => Promise<Catalogue>>> = {
  fr: async () => (await import('../../shared/i18n/fr')).fr,
  es: async () => (await import('../../shared/i18n/es')).es,
  ar: async () => (await import('../../shared/i18n/ar')).ar,
};

function resources() {
  const all: Record<string, { translation: object }> = { en: { translation: en } };
  if (PSEUDO_ALLOWED) all[PSEUDO] = { translation: pseudoCatalogue(en) };
  return all;
}

/**
 * The one i18next instance, made synchronously so the first render already speaks the page's
 * language (main.tsx loads that language's catalogue before it). English until told otherwise.
 */
export const i18n: I18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  resources: resources(),
  lng: DEFAULT_LANGUAGE,
  fallbackLng: DEFAULT_LANGUAGE,
  initAsync: false,
  // React escapes what it renders; escaping here too would show "&amp;" to readers.
  interpolation: { escapeValue: false },
  returnNull: false,
  react: { useSuspense: false },
});

/** The language this page is shown in, from the URL, the setting and the browser. */
export function pageLanguage(sources: Omit<LanguageSources, 'allowPseudo'>): UiLanguage {
  return resolveLanguage({ ...sources, allowPseudo: PSEUDO_ALLOWED });
}

setNaSource((language) =>
  i18n.hasResourceBundle(language, 'translation')
    ? i18n.getFixedT(language)('format.na')
    : undefined,
);

const isLoaded = (language: UiLanguage) => i18n.hasResourceBundle(language, 'translation');

/** Fetches `language`'s catalogue once (nothing to fetch for English and the pseudo-locale). */
export async function loadLanguage(language: UiLanguage): Promise<void> {
  if (isLoaded(language) || !(language in LOADERS)) return;
  const catalogue = await LOADERS[language as keyof typeof LOADERS]();
  i18n.addResourceBundle(language, 'translation', catalogue);
}

/** The language last asked for: a catalogue that arrives after another switch is not applied. */
let wanted: UiLanguage = DEFAULT_LANGUAGE;

/**
 * Switches the interface, the formatting and `<html lang dir>` to `language`, once its catalogue
 * is here (at once when it is; a page keeps its language until the new one has arrived, so it
 * never shows half of each, or English laid out right to left).
 */
export function applyLanguage(language: UiLanguage, root: HTMLElement | null): void {
  wanted = language;
  if (!isLoaded(language) && language in LOADERS) {
    loadLanguage(language).then(
      () => {
        if (wanted === language) applyLanguage(language, root);
      },
      // Offline or a failed chunk: the page stays in the language it has.
      () => undefined,
    );
    return;
  }
  setFormatLanguage(language);
  if (i18n.language !== language) void i18n.changeLanguage(language);
  if (root) {
    root.lang = language;
    root.dir = directionOf(language);
  }
}

/**
 * `t` for code outside React's hooks (formatting helpers, labels built in utils). Pages are
 * remade when the language changes (the layout keys `<main>` by it), so what they render with
 * this follows the language like what uses `useTranslation`.
 */
export const t = i18n.t.bind(i18n);
