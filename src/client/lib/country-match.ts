import type { ReferenceCountry } from '../../shared/history-api';
import { searchKey } from './format';

export interface SearchHit {
  country: ReferenceCountry;
  /** The alias that matched, when the name itself did not ("UK" for United Kingdom). */
  via: string | null;
}

/** Typed text this short is compared exactly: one edit of "mal" matches half the world. */
const TYPO_MIN_LENGTH = 4;

/**
 * Whether `a` and `b` differ by at most one edit: a letter added, dropped, changed, or two
 * neighbours swapped ("nigeira" → "nigeria"). Linear, no distance matrix.
 */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i += 1;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  const [long, short] = a.length > b.length ? [a, b] : [b, a];
  return long.slice(i + 1) === short.slice(i);
}

/**
 * How near `key` is to `name` within one edit: 0 for the whole name, 1 for its beginning
 * ("nigei" → "nigeria"), null when farther (or when the key is too short to guess at).
 */
function nearness(key: string, name: string): 0 | 1 | null {
  if (key.length < TYPO_MIN_LENGTH) return null;
  if (withinOneEdit(key, name)) return 0;
  // A beginning one edit off: compare with the name's start of the key's length, one shorter
  // and one longer (a dropped or added letter shifts the rest).
  const begun = [key.length - 1, key.length, key.length + 1].some(
    (n) => n < name.length && withinOneEdit(key, name.slice(0, n)),
  );
  return begun ? 1 : null;
}

/**
 * Better matches first: the code or the whole name, a whole alias ("UK" before "Ukraine"), a name
 * prefix, an alias prefix, anywhere in a name or alias, then one typo away from a name (whole,
 * then begun) or from an alias.
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
  const others = [
    { alias: country.official_name, key: searchKey(country.official_name) },
    ...aliases,
  ];
  const inside = others.find((a) => a.key.includes(key));
  if (inside) return { rank: 5, via: inside.alias };
  const near = nearness(key, name);
  if (near !== null) return { rank: 6 + near, via: null };
  let best: { rank: number; via: string | null } | null = null;
  for (const a of aliases) {
    const nearAlias = nearness(key, a.key);
    if (nearAlias !== null && (best === null || 8 + nearAlias < best.rank)) {
      best = { rank: 8 + nearAlias, via: a.alias };
    }
  }
  return best;
}

/**
 * Countries matching typed text by name, ISO code or a common name ("UK", "Ivory Coast", "Burma"),
 * case- and accent-insensitive, tolerating one typo ("Nigeira"). Within a rank, countries in the
 * current data come first, then shorter names: the typed text is more of "Mali" than of "Malawi".
 */
export function searchCountries(
  countries: readonly ReferenceCountry[],
  text: string,
  /** Codes in the current data (a set or a map by code); null while unknown. */
  inData: { has(iso: string): boolean } | null,
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
        a.hit.country.name.length - b.hit.country.name.length ||
        a.hit.country.name.localeCompare(b.hit.country.name),
    )
    .slice(0, limit)
    .map((entry) => entry.hit);
}
