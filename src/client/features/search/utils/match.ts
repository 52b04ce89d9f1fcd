import type { ReferenceCountry } from '../../../../shared/history-api';
import { searchKey } from '../../../lib/format';

export interface SearchHit {
  country: ReferenceCountry;
  /** The alias that matched, when the name itself did not ("UK" for United Kingdom). */
  via: string | null;
}

/**
 * Better matches first: the code or the whole name, a whole alias ("UK" before "Ukraine"), a name
 * prefix, an alias prefix, then anywhere in a name or alias.
 */
function rank(country: ReferenceCountry, key: string): { rank: number; via: string | null } | null {
  const name = searchKey(country.name);
  if ((key.length === 3 && country.iso.toLowerCase() === key) || name === key) {
    return { rank: 0, via: null };
  }
  const aliases = country.aliases.map((alias) => ({ alias, key: searchKey(alias) }));
  const exact = aliases.find((a) => a.key === key);
  if (exact) return { rank: 1, via: exact.alias };
  if (name.startsWith(key)) return { rank: 2, via: null };
  const prefix = aliases.find((a) => a.key.startsWith(key));
  if (prefix) return { rank: 3, via: prefix.alias };
  if (name.includes(key)) return { rank: 4, via: null };
  const inside = [
    { alias: country.official_name, key: searchKey(country.official_name) },
    ...aliases,
  ].find((a) => a.key.includes(key));
  return inside ? { rank: 5, via: inside.alias } : null;
}

/**
 * Countries matching typed text by name, ISO code or a common name ("UK", "Ivory Coast", "Burma"),
 * case- and accent-insensitive. Within a rank, countries in the current data come first.
 */
export function searchCountries(
  countries: readonly ReferenceCountry[],
  text: string,
  inData: ReadonlySet<string> | null,
  limit = 8,
): SearchHit[] {
  const key = searchKey(text.trim());
  if (key === '') return [];
  const hits: { hit: SearchHit; rank: number }[] = [];
  for (const country of countries) {
    const found = rank(country, key);
    if (found) hits.push({ hit: { country, via: found.via }, rank: found.rank });
  }
  const present = (iso: string) => (inData === null || inData.has(iso) ? 0 : 1);
  return hits
    .sort(
      (a, b) =>
        a.rank - b.rank ||
        present(a.hit.country.iso) - present(b.hit.country.iso) ||
        a.hit.country.name.localeCompare(b.hit.country.name),
    )
    .slice(0, limit)
    .map((entry) => entry.hit);
}
