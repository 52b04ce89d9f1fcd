import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { isIso3, normaliseIso3 } from '../../../shared/iso';
import { PanelBoundary } from '../../components/panel-boundary';
import { QueryError } from '../../components/query-error';
import { Skeleton } from '../../components/skeleton';
import { StaleNote } from '../../components/stale-note';
import { useNow } from '../../lib/use-now';
import { countryQueries } from '../../features/country/api/country-queries';
import { ExportLinks } from '../../features/export/components/export-links';
import { hotspotQueries } from '../../features/hotspots/api/hotspot-queries';
import { HotspotsPanel } from '../../features/hotspots/components/hotspots-panel';
import { useHotspotFilters } from '../../features/hotspots/hooks/use-hotspot-filters';
import { shapeQueries } from '../../features/map/api/shape-queries';
import { countrySummaryQueries } from '../../features/overview/api/country-summary-queries';
import { GlobalHeader } from '../../features/overview/components/global-header';
import { statusQueries } from '../../features/status/api/status-queries';
import { FollowButton } from '../../features/watchlists/components/follow-button';
import { quotaText } from '../../features/status/utils/quota-text';
import { loadCountryRoute } from '../load-country-route';

// Leaflet is its own chunk, so the overview's first paint (the global index) does not wait for
// it; the shapes chunk is requested at the same time (see the effect below), not after it.
const WorldMap = lazy(async () => ({
  default: (await import('../../features/map/components/world-map')).WorldMap,
}));

/** `/`: global index, world map, hotspot table and exports, each panel failing on its own. */
export function OverviewRoute() {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const now = useNow();
  const status = useQuery(statusQueries.current());
  const countries = useQuery(countrySummaryQueries.list());
  const [filters] = useHotspotFilters();
  // Same query as the table's (shared cache entry): the map's markers are the table's rows.
  const hotspots = useQuery({ ...hotspotQueries.list(filters), placeholderData: keepPreviousData });

  useEffect(() => {
    void queryClient.prefetchQuery(shapeQueries.world());
  }, [queryClient]);

  // The header reads the full batch (/api/countries); if that fails, the hotspot list carries
  // the same global summary, so the index still shows.
  const summary = countries.data ?? hotspots.data;

  const prefetchCountry = useCallback(
    (iso: string) => {
      if (!isIso3(iso)) return;
      void queryClient.prefetchQuery(countryQueries.detail(normaliseIso3(iso)));
      void loadCountryRoute();
    },
    [queryClient],
  );
  const openCountry = useCallback(
    (iso: string) =>
      navigate(`/country/${encodeURIComponent(iso)}`, {
        state: { from: `${location.pathname}${location.search}` },
      }),
    [navigate, location.pathname, location.search],
  );

  return (
    <div className="overview">
      <title>Overview · Global Risk Dashboard</title>
      <h1 className="visually-hidden">Global risk overview</h1>
      <PanelBoundary name="The global index">
        {summary ? (
          <GlobalHeader
            summary={summary.data}
            status={status.data?.data}
            quota={quotaText(status.data?.data)}
            now={now}
          />
        ) : countries.isError && !hotspots.isPending ? (
          <QueryError
            what="The global index"
            error={countries.error}
            onRetry={() => void countries.refetch()}
          />
        ) : (
          <Skeleton label="Loading the global index" lines={4} />
        )}
        <StaleNote
          fetched={summary}
          refreshError={
            summary === countries.data && countries.isRefetchError ? countries.error : null
          }
          now={now}
        />
      </PanelBoundary>

      <section className="panel map-panel" aria-labelledby="map-heading">
        <div className="panel-head">
          <h2 id="map-heading">World map</h2>
          <p className="panel-sub">
            Countries coloured by tier; markers are the hotspots listed below. Select a marker (or
            press Enter on it) to open the country.
          </p>
        </div>
        <PanelBoundary name="The map">
          <Suspense fallback={<Skeleton label="Loading the map" height={440} />}>
            <WorldMap
              countries={countries.data?.data.countries}
              hotspots={hotspots.data?.data.hotspots}
              tiles={status.data?.data.tiles}
              dataVersion={countries.data?.data.as_of ?? 'none'}
              onSelectCountry={openCountry}
            />
          </Suspense>
        </PanelBoundary>
      </section>

      <PanelBoundary name="The hotspot table">
        <HotspotsPanel
          countries={countries.data?.data.countries}
          onRowIntent={prefetchCountry}
          actions={<ExportLinks />}
          rowAction={
            status.data?.data.history
              ? (row) => <FollowButton iso={row.iso} name={row.name} compact />
              : undefined
          }
          now={now}
        />
      </PanelBoundary>
    </div>
  );
}
