import { t } from '../../lib/i18n';
import { pageTitle } from '../../lib/page-title';
import { tierWord } from '../../lib/tier-words';
import { PanelBoundary } from '../../components/panel-boundary';
import { PrintedPages } from '../../components/printed-pages';
import { RiskIndexSwitch, teamNameOf } from '../../components/risk-index-switch';
import type { SkipLinksHandle } from '../../components/skip-links';
import { ChangesStrip } from '../../features/changes/components/changes-strip';
import { PastBatchPicker } from '../../features/as-of/components/as-of-bar';
import { useCompareSelection, useOverviewNavigation, useOverviewQueries } from './overview-data';
import { CountryTablePanel, HistoryRow, IndexPanel, MapPanel } from './overview-panels';

/** "Overview: Critical, High": the tab says which view it is. */
function overviewTitle(tiers: readonly string[]): string {
  return tiers.length > 0
    ? t('pages.overviewOf', { tiers: tiers.map(tierWord).join(', ') })
    : t('pages.overview');
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
  const queries = useOverviewQueries();
  const compare = useCompareSelection();
  const { prefetchCountry, openCountry, openSite } = useOverviewNavigation(queries.asOf);
  const { filters, summary, status } = queries;

  return (
    <div className="overview">
      <title>{pageTitle(overviewTitle(filters.tiers))}</title>
      <h1 className="visually-hidden">{t('pages.overviewHeading')}</h1>
      <PrintedPages asOf={summary?.data.as_of} />
      <IndexPanel queries={queries} />

      {/* What moved, under the index, and the map right after: both in the first screen of a
          phone (index, strip, then the map's top) and of a 1440×900 display. In the first
          render: its answer is asked for as the app starts (start-page.ts), and its box is of a
          fixed height, loaded or not. */}
      <PanelBoundary name={t('pages.panelMoved')}>
        <ChangesStrip />
      </PanelBoundary>

      <MapPanel queries={queries} onSelectCountry={openCountry} onSelectSite={openSite} />
      {/* Under the map it colours, so the map's top stays in the first screen (issue 19.10). */}
      <RiskIndexSwitch teamName={teamNameOf(queries.countries.data?.data)} />
      {status.data?.data.history ? <PastBatchPicker /> : null}
      <HistoryRow />
      <CountryTablePanel queries={queries} compare={compare} onRowIntent={prefetchCountry} />
    </div>
  );
}
