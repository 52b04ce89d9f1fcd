import type { CountrySummary } from '../../../../shared/bff-api';

/**
 * Each country's rank in the whole run (1 = highest risk), from the full batch: the upstream
 * ranks hotspots by risk, highest first. Countries without a risk have no rank.
 */
export function overallRanks(
  countries: readonly Pick<CountrySummary, 'iso' | 'risk'>[] | undefined,
): Map<string, number> {
  const scored = (countries ?? []).filter(
    (c): c is typeof c & { risk: number } => typeof c.risk === 'number',
  );
  scored.sort((a, b) => b.risk - a.risk);
  return new Map(scored.map((c, index) => [c.iso.toUpperCase(), index + 1]));
}
