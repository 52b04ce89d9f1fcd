import type { CountryHistoryPoint } from '../../../../shared/history-api';
import type { MethodMark } from '../../../../shared/method-api';

/** One compared country: its code, display name and recorded history (oldest first). */
export interface ComparedCountry {
  iso: string;
  name: string;
  points: readonly CountryHistoryPoint[];
  /** The provider's method changes its history answer carries (issue 31). */
  methodChanges: readonly MethodMark[];
}

/**
 * The point a country's change is counted from: its first recorded point, or, when a method
 * change not marked comparable lies between that and its latest, the first point under the
 * newest such change (issue 31: never a subtraction across two methods).
 */
export function changeBase(
  points: readonly CountryHistoryPoint[],
  since: string | null,
): CountryHistoryPoint | undefined {
  if (since === null) return points[0];
  const from = Date.parse(since);
  return points.find((point) => Date.parse(point.as_of) >= from);
}

/** Lines differ by colour (Okabe–Ito) and by dash, so they read without colour vision too. */
export const COMPARE_STYLES = [
  { colour: '#0072b2', dash: undefined },
  { colour: '#d55e00', dash: '8 3' },
  { colour: '#009e73', dash: '2 3' },
  { colour: '#cc79a7', dash: '10 3 2 3' },
  { colour: '#e69f00', dash: '4 4' },
  { colour: '#56b4e9', dash: '12 4' },
] as const;

/** Risk per batch, one column per country; a batch a country was missing from is a gap. */
export function riskTable(countries: readonly ComparedCountry[]) {
  const byTime = new Map<string, Record<string, number | null | string>>();
  for (const country of countries) {
    for (const point of country.points) {
      const row = byTime.get(point.as_of) ?? { as_of: point.as_of };
      row[country.iso] = point.risk;
      byTime.set(point.as_of, row);
    }
  }
  return [...byTime.values()].sort((a, b) => String(a.as_of).localeCompare(String(b.as_of)));
}

/** Category names across the compared countries' latest points, in a stable order. */
export function latestCategories(countries: readonly ComparedCountry[]): string[] {
  const names = new Set<string>();
  for (const country of countries) {
    const latest = [...country.points].reverse().find((p) => p.categories)?.categories;
    for (const name of Object.keys(latest ?? {})) names.add(name);
  }
  return [...names].sort();
}

export function latestPoint(country: ComparedCountry): CountryHistoryPoint | undefined {
  return country.points.at(-1);
}

/**
 * The compared countries as of a recorded batch (`?as_of=`): each history up to the newest
 * batch at or before it, so the key numbers, categories and trend are those of that batch, as
 * the BFF resolves an as-of time. Unchanged for the latest (null).
 */
export function upToBatch(
  countries: readonly ComparedCountry[],
  asOf: string | null,
): readonly ComparedCountry[] {
  const until = asOf === null ? Number.NaN : Date.parse(asOf);
  if (Number.isNaN(until)) return countries;
  return countries.map((country) => ({
    ...country,
    points: country.points.filter((point) => Date.parse(point.as_of) <= until),
  }));
}
