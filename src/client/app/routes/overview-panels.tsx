import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useDeferredValue } from 'react';
import { Link } from '../../lib/app-link';
import { isIso3 } from '../../../shared/iso';
import { AfterFirstPaint } from '../../components/after-first-paint';
import { PanelBoundary } from '../../components/panel-boundary';
import { QueryError } from '../../components/query-error';
import { ShareButton } from '../../components/share-button';
import { Skeleton } from '../../components/skeleton';
import { StaleNote } from '../../components/stale-note';
import { TableChoice } from '../../features/all-countries/components/table-choice';
import { CompareSelectionBar } from '../../features/compare/components/compare-selection-bar';
import { ExportLinks } from '../../features/export/components/export-links';
import { teamNameOf } from '../../components/risk-index-switch';
import { HotspotsPanel } from '../../features/hotspots/components/hotspots-panel';
import {
  GlobalHeader,
  GlobalHeaderSkeleton,
} from '../../features/overview/components/global-header';
import { BatchCheck } from '../../features/status/components/batch-check';
import { overdueBatchAt } from '../../../shared/status-lines';
import { FollowButton } from '../../features/watchlists/components/follow-button';
import { useMapUrl } from '../../features/map/hooks/use-map-url';
import { useRecordedRiskDeltas } from '../../lib/recorded-deltas';
import { historyPanelsQuery } from '../load-history-panels';
import type { CompareSelection, OverviewQueries } from './overview-data';
import { t } from '../../lib/i18n';

// The overview's panels, each one thing the page shows; overview-route.tsx composes them.

// Not needed for the first view's key figures: the All-countries table (behind a choice) loads
// after the global index, in its own chunk, as the history panels do (load-history-panels.ts).
// Their loading frames keep the panels' heights (history.css), so nothing below them moves.
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
// Functions: made in the page's language when drawn, not at import.
const trendLoading = () => <PanelLoading className="trend-panel" label={t('trend.loading')} />;
const changesLoading = () => (
  <PanelLoading className="changes-panel" label={t('changes.loading')} />
);

/** The print-ready brief of the hotspots on the map (the brief takes up to 100 countries). */
function briefLink(hotspots: readonly { iso: string }[] | undefined): string {
  const isos = (hotspots ?? [])
    .map((h) => h.iso)
    .filter(isIso3)
    .slice(0, 100);
  return isos.length > 0 ? `/brief?iso=${isos.join(',')}` : '/brief';
}

/** The global index: from the full batch, else from the hotspot list's summary. */
export function IndexPanel({ queries }: { queries: OverviewQueries }) {
  const { status, countries, hotspots, summary, now, asOf } = queries;
  // A past batch is not checked for: no next check, no "Check now" (issue 33, point 3).
  const batchCheck =
    status.data && asOf === null ? <BatchCheck status={status.data.data} now={now} /> : null;
  return (
    <PanelBoundary name={t('panels.globalIndex')}>
      {summary ? (
        <GlobalHeader
          summary={summary.data}
          status={status.data?.data}
          now={now}
          overdueAt={overdueBatchAt(status.data?.data.as_of, now)}
          batchCheck={batchCheck}
          past={asOf !== null}
        />
      ) : countries.isError && !hotspots.isPending ? (
        <QueryError
          what={t('panels.globalIndex')}
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
  );
}

/** The world map: its own chunk (Leaflet), a skeleton until it comes. */
export function MapPanel({
  queries,
  onSelectCountry,
  onSelectSite,
}: {
  queries: OverviewQueries;
  onSelectCountry: (iso: string) => void;
  onSelectSite: (id: number) => void;
}) {
  const { status, countries, hotspots, markers, mapChunk } = queries;
  const WorldMap = mapChunk.data;
  // Read here and handed to the map (memoised), which redraws only when what it shows changes.
  const mapUrl = useMapUrl();
  const recorded = useRecordedRiskDeltas(countries.data?.data.as_of);
  return (
    <section className="panel map-panel" aria-labelledby="map-heading">
      <div className="panel-head">
        <h2 id="map-heading">{t('overview.worldMap')}</h2>
        <p className="panel-sub">
          {teamNameOf(countries.data?.data) ? t('overview.mapByTeamTier') : t('overview.mapByTier')}
          {t('overview.mapHow')}
        </p>
        <Link className="panel-head-link no-print" to={briefLink(hotspots.data?.data.hotspots)}>
          {t('overview.briefHotspots')}
        </Link>
      </div>
      <PanelBoundary name={t('panels.map')}>
        {WorldMap ? (
          <WorldMap
            countries={countries.data?.data.countries}
            hotspots={markers}
            tiles={status.data?.data.tiles}
            dataVersion={countries.data?.data.as_of ?? 'none'}
            recorded={recorded}
            countriesLoading={countries.isPending}
            onSelectCountry={onSelectCountry}
            sitesAvailable={Boolean(status.data?.data.history)}
            onSelectSite={onSelectSite}
            {...mapUrl}
          />
        ) : mapChunk.isError ? (
          <QueryError
            what={t('panels.map')}
            error={mapChunk.error}
            onRetry={() => void mapChunk.refetch()}
          />
        ) : (
          <Skeleton label={t('panels.loadingMap')} height={440} />
        )}
      </PanelBoundary>
    </section>
  );
}

/** The trend and What changed once their chunks are in: their loading frames until then. */
function HistoryPanels({ loading }: { loading: ReactNode }) {
  const chunk = useQuery(historyPanelsQuery());
  // The chunks' arrival is a store update, which React renders at once and whole (one task of
  // about 100 ms at 1x CPU on a phone-sized page: both panels, What changed's lists among them).
  // Deferred, that render is a transition React slices; the loading frames stay until it commits.
  const panels = useDeferredValue(chunk.data);
  const failed = (what: string, error: Error) => (
    <QueryError what={what} error={error} onRetry={() => void chunk.refetch()} />
  );
  if (panels) {
    return (
      <>
        <PanelBoundary name={t('panels.globalTrend')}>
          <panels.GlobalTrendPanel />
        </PanelBoundary>
        <PanelBoundary name={t('changes.heading')}>
          <panels.ChangesPanel />
        </PanelBoundary>
      </>
    );
  }
  if (chunk.isError) {
    return (
      <>
        {failed(t('panels.globalTrend'), chunk.error)}
        {failed(t('changes.heading'), chunk.error)}
      </>
    );
  }
  return loading;
}

/**
 * The history panels: asked for in the render after the first (not while the index and the map
 * are drawn), and drawn before the table under them (AfterHistoryPanels), so neither grows above
 * the other once it is drawn.
 */
export function HistoryRow() {
  const loading = (
    <>
      {trendLoading()}
      {changesLoading()}
    </>
  );
  return (
    <div className="two-columns history-row">
      <AfterFirstPaint fallback={loading}>
        <HistoryPanels loading={loading} />
      </AfterFirstPaint>
    </div>
  );
}

/**
 * Holds what it wraps until the history panels' chunks have come (or failed), then draws it in
 * a deferred render: no panel above the table grows after it is drawn. The panels are drawn in
 * a deferred render too (HistoryPanels), so both are one sliced transition with one commit; in
 * traces of a 412 px page at 1x CPU no commit of the load is over 40 ms. (When the panels were
 * drawn synchronously, in the same render as the table, that one task raised the overview's
 * blocking time at 4x CPU by about 150 ms.)
 */
function AfterHistoryPanels({ children, fallback }: { children: ReactNode; fallback: ReactNode }) {
  const settled = !useQuery(historyPanelsQuery()).isPending;
  return useDeferredValue(settled, false) ? children : fallback;
}

/**
 * The country table, below the map: the hotspot table or, by choice, all countries. Drawn right
 * after the first frame rather than in it (the hotspot rows were the largest part of that frame,
 * which holds back the index and the map).
 */
export function CountryTablePanel({
  queries,
  compare,
  onRowIntent,
}: {
  queries: OverviewQueries;
  compare: CompareSelection;
  onRowIntent: (iso: string) => void;
}) {
  const { status, countries, reference, table, now } = queries;
  const selection = { selected: compare.selected, onToggle: compare.toggle };
  const tableActions = (extra?: ReactNode) => (
    <>
      <TableChoice />
      <ShareButton />
      <ExportLinks />
      {extra}
    </>
  );
  const selectionBar = <CompareSelectionBar selected={compare.selected} onClear={compare.clear} />;
  const loading = <PanelLoading className="table-panel" label={t('hotspots.loadingTable')} />;
  return (
    <PanelBoundary name={t('panels.countryTable')}>
      <AfterFirstPaint fallback={loading}>
        <AfterHistoryPanels fallback={loading}>
          {table === 'all' ? (
            <Suspense
              fallback={
                <PanelLoading className="all-countries-panel" label={t('allCountries.loading')} />
              }
            >
              <AllCountriesPanel
                countries={countries.data?.data.countries}
                asOf={countries.data?.data.as_of}
                error={countries.error}
                onRetry={() => void countries.refetch()}
                reference={reference.data?.data.countries}
                onRowIntent={onRowIntent}
                actions={tableActions()}
                selection={selection}
                selectionBar={selectionBar}
              />
            </Suspense>
          ) : (
            <HotspotsPanel
              countries={countries.data?.data.countries}
              onRowIntent={onRowIntent}
              rowAction={
                status.data?.data.history
                  ? (row) => <FollowButton iso={row.iso} name={row.name} compact />
                  : undefined
              }
              actions={tableActions(selectionBar)}
              now={now}
              selection={selection}
            />
          )}
        </AfterHistoryPanels>
      </AfterFirstPaint>
    </PanelBoundary>
  );
}
