import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { Link, useAppNavigate } from '../../lib/app-link';
import { isIso3, normaliseIso3 } from '../../../shared/iso';
import { tierLabel } from '../../../shared/tiers';
import { AfterFirstPaint } from '../../components/after-first-paint';
import { PanelBoundary } from '../../components/panel-boundary';
import { PrintedPages } from '../../components/printed-pages';
import { QueryError } from '../../components/query-error';
import { ShareButton } from '../../components/share-button';
import { Skeleton } from '../../components/skeleton';
import type { SkipLinksHandle } from '../../components/skip-links';
import { StaleNote } from '../../components/stale-note';
import { useNow } from '../../lib/use-now';
import { TableChoice } from '../../features/all-countries/components/table-choice';
import { useTableChoice } from '../../features/all-countries/hooks/use-table-choice';
import { ChangesStrip } from '../../features/changes/components/changes-strip';
import { CompareSelectionBar } from '../../features/compare/components/compare-selection-bar';
import { countryQueries } from '../../features/country/api/country-queries';
import { ExportLinks } from '../../features/export/components/export-links';
import { hotspotQueries } from '../../features/hotspots/api/hotspot-queries';
import { HotspotsPanel } from '../../features/hotspots/components/hotspots-panel';
import { useHotspotFilters } from '../../features/hotspots/hooks/use-hotspot-filters';
import { shapeQueries } from '../../features/map/api/shape-queries';
import { countrySummaryQueries } from '../../features/overview/api/country-summary-queries';
import {
  GlobalHeader,
  GlobalHeaderSkeleton,
} from '../../features/overview/components/global-header';
import { referenceQueries } from '../../features/reference/api/reference-queries';
import { BatchCheck } from '../../features/status/components/batch-check';
import { statusQueries } from '../../features/status/api/status-queries';
import { overdueBatchAt } from '../../features/status/utils/batch-schedule';
import { FollowButton } from '../../features/watchlists/components/follow-button';
import { loadCountryRoute } from '../load-country-route';
import { worldMapQuery } from '../load-world-map';
import { useAsOf } from '../../lib/as-of';
import { PastBatchPicker } from '../../features/as-of/components/as-of-bar';

// Not needed for the first view's key figures: the history panels (with their CSV tools) and the
// All-countries table (behind a choice) load after the global index, in their own chunks. Their
// loading frames keep the panels' heights (history.css), so nothing below them moves.
const GlobalTrendPanel = lazy(async () => ({
  default: (await import('../../features/history/components/global-trend-panel')).GlobalTrendPanel,
}));
const ChangesPanel = lazy(async () => ({
  default: (await import('../../features/changes/components/changes-panel')).ChangesPanel,
}));
const AllCountriesPanel = lazy(async () => ({
  default: (await import('../../features/all-countries/components/all-countries-panel'))
    .AllCountriesPanel,
}));

/** A panel's frame while its code loads: the same class (and so the same reserved height). */
function PanelLoading({ className, label }: { className: string; label: string }) {
  return (
    <section className={`panel ${className}`} aria-busy="true">
      <Skeleton label={label} lines={6} />
    </section>
  );
}

// The history panels' loading frames: shown until the render after the first, then while
// their code loads.
const trendLoading = <PanelLoading className="trend-panel" label="Loading the trend" />;
const changesLoading = <PanelLoading className="changes-panel" label="Loading what changed" />;

/** "Overview: Critical, High": the tab says which view it is. */
function overviewTitle(tiers: readonly string[]): string {
  return tiers.length > 0 ? `Overview: ${tiers.map(tierLabel).join(', ')}` : 'Overview';
}

/** The print-ready brief of the hotspots on the map (the brief takes up to 100 countries). */
function briefLink(hotspots: readonly { iso: string }[] | undefined): string {
  const isos = (hotspots ?? [])
    .map((h) => h.iso)
    .filter(isIso3)
    .slice(0, 100);
  return isos.length > 0 ? `/brief?iso=${isos.join(',')}` : '/brief';
}

/** The overview's skip links: past the header to the map, past the map to the table's rows. */
export const overviewHandle: SkipLinksHandle = {
  skipLinks: (params) => [
    { target: 'world-map', label: 'Skip to the map' },
    params.get('table') === 'all'
      ? { target: 'all-countries-rows', label: 'Skip to the country table' }
      : { target: 'hotspot-rows', label: 'Skip to the hotspot table' },
  ],
};

/** `/`: global index, world map, hotspot table and exports, each panel failing on its own. */
export function OverviewRoute() {
  const navigate = useAppNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const now = useNow();
  const status = useQuery(statusQueries.current());
  const asOf = useAsOf();
  const countries = useQuery(countrySummaryQueries.list(asOf));
  const [filters] = useHotspotFilters();
  // Same query as the table's (shared cache entry): the map's markers are the table's rows.
  const hotspots = useQuery({
    ...hotspotQueries.list(filters, asOf),
    placeholderData: keepPreviousData,
  });
  const { table } = useTableChoice();
  // Regions for the All countries filter; the palette shares the same cache entry.
  const reference = useQuery({ ...referenceQueries.countries(), enabled: table === 'all' });
  // Rows chosen for Compare in either table: a passing choice, not a view, so not in the URL.
  const [compareIsos, setCompareIsos] = useState<readonly string[]>([]);
  const toggleCompare = useCallback(
    (iso: string) =>
      setCompareIsos((current) =>
        current.includes(iso) ? current.filter((x) => x !== iso) : [...current, iso],
      ),
    [],
  );

  // Leaflet is its own chunk, so the global index does not wait for it; the shapes chunk is
  // requested with it (both are started before the first render: app/start-page.ts).
  const mapChunk = useQuery(worldMapQuery());
  const WorldMap = mapChunk.data;
  useEffect(() => {
    void queryClient.prefetchQuery(shapeQueries.world());
  }, [queryClient]);

  // The header reads the full batch (/api/countries); if that fails, the hotspot list carries
  // the same global summary, so the index still shows.
  const summary = countries.data ?? hotspots.data;

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
      navigate(`/country/${encodeURIComponent(iso)}`, {
        state: { from: `${location.pathname}${location.search}` },
      }),
    [navigate, location.pathname, location.search],
  );

  const openSite = useCallback(
    (id: number) =>
      navigate(`/sites/${id}`, { state: { from: `${location.pathname}${location.search}` } }),
    [navigate, location.pathname, location.search],
  );

  return (
    <div className="overview">
      <title>{`${overviewTitle(filters.tiers)} · Global Risk Dashboard`}</title>
      <h1 className="visually-hidden">Global risk overview</h1>
      <PrintedPages asOf={summary?.data.as_of} />
      <PanelBoundary name="The global index">
        {summary ? (
          <GlobalHeader
            summary={summary.data}
            status={status.data?.data}
            now={now}
            overdueAt={overdueBatchAt(status.data?.data.as_of, now)}
            batchCheck={status.data ? <BatchCheck status={status.data.data} now={now} /> : null}
          />
        ) : countries.isError && !hotspots.isPending ? (
          <QueryError
            what="The global index"
            error={countries.error}
            onRetry={() => void countries.refetch()}
          />
        ) : (
          <GlobalHeaderSkeleton />
        )}
        <StaleNote
          fetched={summary}
          refreshError={
            summary === countries.data && countries.isRefetchError ? countries.error : null
          }
          now={now}
        />
      </PanelBoundary>

      {/* What moved, under the index, and the map right after: both in the first screen of a
          phone (index, strip, then the map's top) and of a 1440×900 display. The strip comes
          after the first frame, in a frame of its final height. */}
      <PanelBoundary name="What moved">
        <AfterFirstPaint fallback={<div className="changes-strip" aria-hidden="true" />}>
          <ChangesStrip />
        </AfterFirstPaint>
      </PanelBoundary>

      <section className="panel map-panel" aria-labelledby="map-heading">
        <div className="panel-head">
          <h2 id="map-heading">World map</h2>
          <p className="panel-sub">
            Countries coloured by tier; markers are the hotspots listed below. Select a marker (or
            press Enter on it) to open the country.
          </p>
          <Link className="panel-head-link no-print" to={briefLink(hotspots.data?.data.hotspots)}>
            Brief of these hotspots (print)
          </Link>
        </div>
        <PanelBoundary name="The map">
          {WorldMap ? (
            <WorldMap
              countries={countries.data?.data.countries}
              hotspots={hotspots.data?.data.hotspots}
              tiles={status.data?.data.tiles}
              dataVersion={countries.data?.data.as_of ?? 'none'}
              countriesLoading={countries.isPending}
              onSelectCountry={openCountry}
              sitesAvailable={Boolean(status.data?.data.history)}
              onSelectSite={openSite}
            />
          ) : mapChunk.isError ? (
            <QueryError
              what="The map"
              error={mapChunk.error}
              onRetry={() => void mapChunk.refetch()}
            />
          ) : (
            <Skeleton label="Loading the map" height={440} />
          )}
        </PanelBoundary>
      </section>
      {status.data?.data.history ? <PastBatchPicker /> : null}

      {/* The history panels too come in the render after the first: their chunks are then asked
          for after the first frame, not while the index and the map are being drawn. */}
      <div className="two-columns history-row">
        <AfterFirstPaint
          fallback={
            <>
              {trendLoading}
              {changesLoading}
            </>
          }
        >
          <PanelBoundary name="The global trend">
            <Suspense fallback={trendLoading}>
              <GlobalTrendPanel />
            </Suspense>
          </PanelBoundary>
          <PanelBoundary name="What changed">
            <Suspense fallback={changesLoading}>
              <ChangesPanel />
            </Suspense>
          </PanelBoundary>
        </AfterFirstPaint>
      </div>

      {/* Below the map: drawn right after the first frame rather than in it (the hotspot rows
          were the largest part of that frame, which holds back the index and the map). */}
      <PanelBoundary name="The country table">
        <AfterFirstPaint
          fallback={<PanelLoading className="table-panel" label="Loading the hotspot table" />}
        >
          {table === 'all' ? (
            <Suspense
              fallback={
                <PanelLoading className="all-countries-panel" label="Loading all countries" />
              }
            >
              <AllCountriesPanel
                countries={countries.data?.data.countries}
                asOf={countries.data?.data.as_of}
                error={countries.error}
                onRetry={() => void countries.refetch()}
                reference={reference.data?.data.countries}
                onRowIntent={prefetchCountry}
                actions={
                  <>
                    <TableChoice />
                    <ShareButton />
                    <ExportLinks />
                  </>
                }
                selection={{ selected: compareIsos, onToggle: toggleCompare }}
                selectionBar={
                  <CompareSelectionBar selected={compareIsos} onClear={() => setCompareIsos([])} />
                }
              />
            </Suspense>
          ) : (
            <HotspotsPanel
              countries={countries.data?.data.countries}
              onRowIntent={prefetchCountry}
              rowAction={
                status.data?.data.history
                  ? (row) => <FollowButton iso={row.iso} name={row.name} compact />
                  : undefined
              }
              actions={
                <>
                  <TableChoice />
                  <ShareButton />
                  <ExportLinks />
                  <CompareSelectionBar selected={compareIsos} onClear={() => setCompareIsos([])} />
                </>
              }
              now={now}
              selection={{ selected: compareIsos, onToggle: toggleCompare }}
            />
          )}
        </AfterFirstPaint>
      </PanelBoundary>
    </div>
  );
}
