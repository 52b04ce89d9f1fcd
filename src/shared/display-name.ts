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
