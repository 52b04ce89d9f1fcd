import type { CountrySummary } from '../../../../shared/bff-api';
import type { ReferenceCountry } from '../../../../shared/history-api';

/**
 * Region filter values as they sit in the URL: a UN region ("Africa") or a region and one of its
 * subregions ("Africa/Western Africa"). Built from the reference list, never hand-typed.
 */
export interface RegionOption {
  value: string;
  label: string;
}

export interface RegionGroup {
  region: string;
  subregions: RegionOption[];
}

export function regionGroups(reference: readonly ReferenceCountry[]): RegionGroup[] {
  const byRegion = new Map<string, Set<string>>();
  for (const country of reference) {
    if (!country.region) continue;
    const subs = byRegion.get(country.region) ?? new Set<string>();
    if (country.subregion) subs.add(country.subregion);
    byRegion.set(country.region, subs);
  }
  return [...byRegion.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([region, subs]) => ({
      region,
      subregions: [...subs].sort().map((sub) => ({ value: `${region}/${sub}`, label: sub })),
    }));
}

export interface AllCountriesRow extends CountrySummary {
  region: string | null;
  subregion: string | null;
}

/** The batch's countries with their regions; a country the reference lacks has none. */
export function withRegions(
  countries: readonly CountrySummary[],
  reference: readonly ReferenceCountry[] | undefined,
): AllCountriesRow[] {
  const byIso = new Map((reference ?? []).map((c) => [c.iso, c]));
  return countries.map((country) => {
    const known = byIso.get(country.iso.toUpperCase());
    return { ...country, region: known?.region ?? null, subregion: known?.subregion ?? null };
  });
}

/** Rows in the chosen region (or region/subregion); an empty filter keeps every row. */
export function inRegion(rows: readonly AllCountriesRow[], filter: string): AllCountriesRow[] {
  if (filter === '') return [...rows];
  const [region, subregion] = filter.split('/', 2);
  return rows.filter(
    (row) => row.region === region && (subregion === undefined || row.subregion === subregion),
  );
}

/** Highest risk first, unscored last, then by name. */
export function byRisk(a: AllCountriesRow, b: AllCountriesRow): number {
  return (b.risk ?? -Infinity) - (a.risk ?? -Infinity) || a.name.localeCompare(b.name);
}
