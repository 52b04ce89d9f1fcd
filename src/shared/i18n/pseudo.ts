import type { Catalogue } from './en.js';

/*
 * The pseudo-locale, made from English when the catalogue is loaded (never stored): each message
 * becomes "⟦Ŝķîƥ ţö çöñţéñţ⟧", so a test can tell a translated string from a hard-coded one by
 * its markers, and accents show clipped glyphs. Placeholders ({{name}}) are kept as they are.
 */
export const PSEUDO_OPEN = '⟦';
export const PSEUDO_CLOSE = '⟧';

const ACCENTED: Readonly<Record<string, string>> = Object.fromEntries(
  [...'abcdeghiklnorstuyzABCDEGHIKLNORSTUYZ'].map((letter, index) => [
    letter,
    [...'àƀçđéĝĥîķĺñöŕšţûýžÀƁÇĐÉĜĤÎĶĹÑÖŔŠŢÛÝŽ'][index] ?? letter,
  ]),
);

export function pseudoMessage(message: string): string {
  // Split on placeholders so `{{count}}` survives for i18next to fill in.
  const parts = message.split(/(\{\{[^}]+\}\})/);
  const accented = parts
    .map((part) => (part.startsWith('{{') ? part : [...part].map((c) => ACCENTED[c] ?? c).join('')))
    .join('');
  return `${PSEUDO_OPEN}${accented}${PSEUDO_CLOSE}`;
}

export function pseudoCatalogue(source: Catalogue): Catalogue {
  return Object.fromEntries(
    Object.entries(source).map(([section, messages]) => [
      section,
      Object.fromEntries(
        Object.entries(messages).map(([key, text]) => [key, pseudoMessage(String(text))]),
      ),
    ]),
  ) as Catalogue;
}
