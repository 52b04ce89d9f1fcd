import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import {
  CATALOGUES,
  DEFAULT_LANGUAGE,
  directionOf,
  PSEUDO,
  resolveLanguage,
  type LanguageSources,
  type UiLanguage,
} from '../../shared/i18n/index';
import { pseudoCatalogue } from '../../shared/i18n/pseudo';
import { setFormatLanguage } from './format';

/**
 * The pseudo-locale is for development and tests only (`?lang=en-XA`): a production page honours
 * it only when a browser test set `window.__pseudoLocale` before the page's scripts ran
 * (Playwright's addInitScript), so nobody meets "⟦Ĝĺöƀàĺ…⟧" by following a link.
 */
export const PSEUDO_ALLOWED =
  import.meta.env.DEV ||
  import.meta.env.MODE === 'test' ||
  (globalThis as { __pseudoLocale?: unknown }).__pseudoLocale === true;

function resources() {
  const all: Record<string, { translation: object }> = {};
  for (const [language, catalogue] of Object.entries(CATALOGUES)) {
    all[language] = { translation: catalogue };
  }
  if (PSEUDO_ALLOWED) all[PSEUDO] = { translation: pseudoCatalogue(CATALOGUES.en) };
  return all;
}

/**
 * The one i18next instance, made synchronously (every catalogue is bundled: the four are a few
 * KB) so the first render already speaks the page's language. English until told otherwise,
 * which is what the jsdom tests render in.
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

/** Switches the interface, the formatting and `<html lang dir>` to `language`. */
export function applyLanguage(language: UiLanguage, root: HTMLElement | null): void {
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
