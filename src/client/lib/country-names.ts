import countryCodes from 'i18n-iso-countries';
import english from 'i18n-iso-countries/langs/en.json';
import { fixedCountryName } from '../../shared/display-name';

// The library keeps its locales in a registry of its own; registering English is idempotent.
countryCodes.registerLocale(english);

/** Names that are not in the ISO list but that people type. */
const EXTRA_ALIASES: Record<string, readonly string[]> = {
  GBR: ['Britain', 'England', 'Scotland', 'Wales', 'Northern Ireland'],
  USA: ['America'],
  COD: ['DR Congo', 'DRC', 'Congo-Kinshasa'],
  COG: ['Congo-Brazzaville'],
  PRK: ['North Korea'],
  KOR: ['South Korea'],
  MMR: ['Burma'],
  CZE: ['Czech Republic'],
  TUR: ['Turkey', 'Türkiye'],
};

/** Whether `code` is an ISO 3166-1 alpha-3 code assigned to a country (XXX is not). */
export function isAssignedIso3(code: string): boolean {
  return countryCodes.isValid(code.toUpperCase());
}

/**
 * Every English name of a country: the ISO name, common names and aliases ("UK", "Ivory Coast",
 * "Burma"). Empty for codes the list does not know (e.g. Kosovo's user-assigned XKX).
 */
export function countryAliases(iso: string): readonly string[] {
  const code = iso.toUpperCase();
  const names = countryCodes.getName(code, 'en', { select: 'all' }) ?? [];
  return [...names, ...(EXTRA_ALIASES[code] ?? [])];
}

/** The ISO list's short English name ("Iceland"), or null for a code it does not know. */
export function countryName(iso: string): string | null {
  const code = iso.toUpperCase();
  return fixedCountryName(code) ?? countryCodes.getName(code, 'en', { select: 'official' }) ?? null;
}
