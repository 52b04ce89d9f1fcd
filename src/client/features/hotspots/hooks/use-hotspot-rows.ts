import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { CountrySummary } from '../../../../shared/bff-api';
import { useAsOf } from '../../../lib/as-of';
import { useRiskIndex } from '../../../lib/risk-index';
import { useRecordedRiskDeltas } from '../../../lib/recorded-deltas';
import { useSearchAliases } from '../../../lib/country-alias-queries';
import { matchesCountry } from '../../../lib/country-search';
import { hotspotQueries } from '../api/hotspot-queries';
import { overallRanks } from '../utils/overall-rank';
import { sortHotspots, type RankedHotspot } from '../utils/sort';
import { useHotspotFilters } from './use-hotspot-filters';

/**
 * The hotspot list of the URL's filters, ranked, searched and sorted; the tier options; and the
 * countries outside the list that match the search. `countries` (every country of the batch,
 * when loaded) supplies the overall ranks, the tier options and the outside matches.
 */
export function useHotspotRows(countries: readonly CountrySummary[] | undefined) {
  const [filters, setFilters] = useHotspotFilters();
  const searching = filters.q.trim() !== '';
  const aliases = useSearchAliases(searching);
  // Keep the previous rows on screen while a new filter loads, instead of flashing a skeleton.
  const [riskIndex] = useRiskIndex();
  const query = useQuery({
    ...hotspotQueries.list(filters, useAsOf(), riskIndex),
    placeholderData: keepPreviousData,
    // The overview reads the same list from its first render (overview-data.ts) and asked for
    // it then; the table, drawn later (after the history panels), does not ask again for a list
    // that failed. On a loaded machine it came more than RECENT_ERROR_MS after the failure, and
    // mounting asked again: a 400 asked twice. Its "Try again" asks.
    retryOnMount: false,
  });
  const hotspots = query.data?.data.hotspots;
  const recorded = useRecordedRiskDeltas(query.data?.data.as_of);

  // "#" is the rank in the whole run: with a tier filter the list's own order is not it.
  const filtered = filters.tiers.length > 0;
  const overall = useMemo(() => overallRanks(countries), [countries]);
  const ranked = useMemo<RankedHotspot[]>(
    () =>
      (hotspots ?? []).map((row, index) => ({
        ...row,
        rank: index + 1,
        overallRank: filtered ? (overall.get(row.iso.toUpperCase()) ?? null) : index + 1,
        recordedDelta: recorded?.get(row.iso.toUpperCase()) ?? null,
        // The team view's change is the team index's or none: never the provider's figure.
        ...(riskIndex === 'team' ? { delta_headline: null } : {}),
      })),
    [hotspots, filtered, overall, recorded, riskIndex],
  );
  const rows = useMemo(
    () =>
      sortHotspots(
        ranked.filter((row) => matchesCountry(filters.q, row.name, row.iso, aliases)),
        filters.sort,
        filters.dir,
      ),
    [ranked, filters.q, filters.sort, filters.dir, aliases],
  );
  const tierOptions = useMemo(() => {
    const labels = new Set<string>();
    for (const row of [...(countries ?? []), ...ranked]) if (row.tier) labels.add(row.tier);
    return [...labels];
  }, [countries, ranked]);

  const outside = useMemo(() => {
    if (filters.q.trim() === '' || !countries) return [];
    const shown = new Set(ranked.map((row) => row.iso));
    return countries
      .filter((c) => !shown.has(c.iso) && matchesCountry(filters.q, c.name, c.iso, aliases))
      .sort((a, b) => (b.risk ?? -1) - (a.risk ?? -1));
  }, [countries, ranked, filters.q, aliases]);

  return { filters, setFilters, query, ranked, rows, tierOptions, outside };
}
