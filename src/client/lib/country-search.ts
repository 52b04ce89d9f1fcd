import { searchKey } from './format';

/** Every name a country goes by (see country-names.ts, loaded lazily: it is 11 KB). */
export type AliasSource = (iso: string) => readonly string[];

/**
 * Whether a search matches a country: a part of its name as the data gives it, its exact code,
 * or (once `aliases` is loaded) a part of any of its common names ("Ivory" finds Côte d'Ivoire).
 * Accents and case are ignored ("cote" finds Côte). A short query (up to 3 letters: "UK", "US")
 * must equal an alias, not just appear in one, so "us" finds the United States without finding
 * every alias that contains those letters.
 */
export function matchesCountry(
  query: string,
  name: string,
  iso: string,
  aliases?: AliasSource,
): boolean {
  const key = searchKey(query.trim());
  if (key === '') return true;
  if (iso.toLowerCase() === key) return true;
  if (searchKey(name).includes(key)) return true;
  return (aliases?.(iso) ?? []).some((alias) => {
    const aliasKey = searchKey(alias);
    return key.length <= 3 ? aliasKey.replace(/\./g, '') === key : aliasKey.includes(key);
  });
}
