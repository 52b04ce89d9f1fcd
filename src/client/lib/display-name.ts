import commonNames, { alpha2 as alpha2Table } from 'virtual:common-country-names';
import { chooseDisplayName, fixedCountryName } from '../../shared/display-name';
import { localCountryName as nameIn } from '../../shared/i18n/local-country-name';
import { formatLanguage } from './format';

let alpha2Codes: Map<string, string> | null = null;

/** The alpha-2 code of an alpha-3 one ("SDN" → "SD"), from the build-time table. */
function alpha2Of(iso: string): string | undefined {
  alpha2Codes ??= new Map(alpha2Table.split(' ').map((pair) => [pair.slice(0, 3), pair.slice(3)]));
  return alpha2Codes.get(iso.toUpperCase());
}

/**
 * The country's name in `language` from CLDR (shared/i18n/local-country-name.ts, by its alpha-2
 * code from world-countries' table), or `fallback` (the English display name).
 */
export function localCountryName(iso: string, fallback: string, language: string): string {
  return nameIn(alpha2Of(iso), fallback, language);
}

/**
 * The name to show: the data's own name when it is short and plain ("Côte d'Ivoire", "Sudan"),
 * else the short common name ("DR Congo" for "Congo, Democratic Republic of the", "Russia" for
 * "Russian Federation"), which fits a phone's table column. The data's name goes in a tooltip.
 * In another language than English: CLDR's name in that language (issue 34).
 */
export function displayName(iso: string, dataName: string): string {
  const english =
    fixedCountryName(iso) ?? chooseDisplayName(commonNames[iso.toUpperCase()], dataName);
  return localCountryName(iso, english, formatLanguage());
}

/** The formal name for a tooltip, only when it says more than the displayed one. */
export function formalNameTitle(iso: string, dataName: string): string | undefined {
  return displayName(iso, dataName) === dataName ? undefined : dataName;
}

/** The short common name alone ("" when unknown), for search. */
export function commonName(iso: string): string {
  return commonNames[iso.toUpperCase()] ?? '';
}
