import commonNames from 'virtual:common-country-names';
import { chooseDisplayName, fixedCountryName } from '../../shared/display-name';

/**
 * The name to show: the data's own name when it is short and plain ("Côte d'Ivoire", "Sudan"),
 * else the short common name ("DR Congo" for "Congo, Democratic Republic of the", "Russia" for
 * "Russian Federation"), which fits a phone's table column. The data's name goes in a tooltip.
 */
export function displayName(iso: string, dataName: string): string {
  return fixedCountryName(iso) ?? chooseDisplayName(commonNames[iso.toUpperCase()], dataName);
}

/** The formal name for a tooltip, only when it says more than the displayed one. */
export function formalNameTitle(iso: string, dataName: string): string | undefined {
  return displayName(iso, dataName) === dataName ? undefined : dataName;
}

/** The short common name alone ("" when unknown), for search. */
export function commonName(iso: string): string {
  return commonNames[iso.toUpperCase()] ?? '';
}
