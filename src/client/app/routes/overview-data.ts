import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useLocation } from 'react-router';
import { useAppNavigate } from '../../lib/app-link';
import { useAsOf } from '../../lib/as-of';
import { useRiskIndex } from '../../lib/risk-index';
import { useLatest } from '../../lib/use-latest';
import { useNow } from '../../lib/use-now';
import { isIso3, normaliseIso3 } from '../../../shared/iso';
import { useTableChoice } from '../../features/all-countries/hooks/use-table-choice';
import { countryQueries } from '../../features/country/api/country-queries';
import { hotspotQueries } from '../../features/hotspots/api/hotspot-queries';
import { useHotspotFilters } from '../../features/hotspots/hooks/use-hotspot-filters';
import { shapeQueries } from '../../features/map/api/shape-queries';
import { placeHotspots, placesOf } from '../../lib/place-hotspots';
import { countrySummaryQueries } from '../../features/overview/api/country-summary-queries';
import { referenceQueries } from '../../features/reference/api/reference-queries';
import { statusQueries } from '../../features/status/api/status-queries';
import { loadCountryRoute } from '../load-country-route';
import { worldMapQuery } from '../load-world-map';

/** Everything the overview reads, from the URL (filters, batch, table) and the BFF. */
export function useOverviewQueries() {
  const queryClient = useQueryClient();
  const now = useNow();
  const status = useQuery(statusQueries.current());
  const asOf = useAsOf();
  const [index] = useRiskIndex();
  const countries = useQuery(countrySummaryQueries.list(asOf, index));
  const [filters] = useHotspotFilters();
  // Same query as the table's (shared cache entry): the map's markers are the table's rows.
  const hotspots = useQuery({
    ...hotspotQueries.list(filters, asOf, index),
    placeholderData: keepPreviousData,
  });
  // A past batch's recorded rows have no coordinates: its markers go where the latest list
  // puts each country (lib/place-hotspots.ts); the rows stay the batch's.
  const places = useQuery({
    ...countrySummaryQueries.list(),
    enabled: asOf !== null,
    select: placesOf,
  });
  const markers = useMemo(
    () => placeHotspots(hotspots.data?.data.hotspots, asOf === null ? undefined : places.data),
    [hotspots.data, asOf, places.data],
  );
  const { table } = useTableChoice();
  // Regions for the All countries filter; the palette shares the same cache entry.
  const reference = useQuery({ ...referenceQueries.countries(), enabled: table === 'all' });

  // Leaflet is its own chunk, so the global index does not wait for it; the shapes chunk is
  // requested with it (both are started before the first render: app/start-page.ts).
  const mapChunk = useQuery(worldMapQuery());
  useEffect(() => {
    void queryClient.prefetchQuery(shapeQueries.world());
  }, [queryClient]);

  // The header reads the full batch (/api/countries); if that fails, the hotspot list carries
  // the same global summary, so the index still shows.
  const summary = countries.data ?? hotspots.data;
  const found = { now, status, asOf, countries, filters, hotspots, markers, table, reference };
  return { ...found, mapChunk, summary };
}

export type OverviewQueries = ReturnType<typeof useOverviewQueries>;

/** Rows chosen for Compare in either table: a passing choice, not a view, so not in the URL. */
export function useCompareSelection() {
  const [selected, setSelected] = useState<readonly string[]>([]);
  const toggle = useCallback(
    (iso: string) =>
      setSelected((current) =>
        current.includes(iso) ? current.filter((x) => x !== iso) : [...current, iso],
      ),
    [],
  );
  const clear = useCallback(() => setSelected([]), []);
  return { selected, toggle, clear };
}

export type CompareSelection = ReturnType<typeof useCompareSelection>;

/**
 * Where the overview leads: a country (prefetched on intent) or a site, remembering the way back.
 * The callbacks stay the same functions while the URL changes (they read it when called): the
 * memoised world map is given them and is not redrawn by a filter (issue 32, point 7).
 */
export function useOverviewNavigation(asOf: ReturnType<typeof useAsOf>) {
  const navigate = useAppNavigate();
  const location = useLocation();
  const hereRef = useLatest(`${location.pathname}${location.search}`);
  const queryClient = useQueryClient();
  const prefetchCountry = useCallback(
    (iso: string) => {
      if (!isIso3(iso)) return;
      void queryClient.prefetchQuery(countryQueries.detail(normaliseIso3(iso), asOf));
      void loadCountryRoute();
    },
    [queryClient, asOf],
  );
  const openCountry = useCallback(
    (iso: string) =>
      navigate(`/country/${encodeURIComponent(iso)}`, { state: { from: hereRef.current } }),
    [navigate, hereRef],
  );
  const openSite = useCallback(
    (id: number) => navigate(`/sites/${id}`, { state: { from: hereRef.current } }),
    [navigate, hereRef],
  );
  return { prefetchCountry, openCountry, openSite };
}
