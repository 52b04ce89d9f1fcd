/**
 * Countries whose name differs between the data and the name lists (issue 33, point 8): the
 * upstream writes "Côte d'Ivoire", world-countries "Ivory Coast" and the ISO list "Cote
 * d'Ivoire". One name each, on every screen and in every file; the others stay search aliases.
 */
const ONE_NAME: Readonly<Record<string, string>> = { CIV: "Côte d'Ivoire" };

/** The one name a country code goes by when the lists disagree; undefined for the others. */
export function fixedCountryName(iso: string): string | undefined {
  return ONE_NAME[iso.toUpperCase()];
}

/** Longer data names are usually the formal ISO form ("Syrian Arab Republic"). */
const SHORT_ENOUGH = 16;

/**
 * The one name a country goes by on every screen and in every file: the data's own name when it
 * is short and plain ("Côte d'Ivoire", "Sudan"), else the short common name ("DR Congo" for
 * "Congo, Democratic Republic of the", "Russia" for "Russian Federation"). The SPA and the BFF
 * each pass their own table of common names (`common`, undefined when the code is unknown).
 */
export function chooseDisplayName(common: string | undefined, dataName: string): string {
  if (!common || common.length >= dataName.length) return dataName;
  return dataName.includes(',') || dataName.length > SHORT_ENOUGH ? common : dataName;
}
