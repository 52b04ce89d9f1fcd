import type { ComponentProps, ReactNode } from 'react';
import { useLocation } from 'react-router';
import { Link } from '../../../lib/app-link';
import type { CountrySummary } from '../../../../shared/bff-api';
import { QueryError } from '../../../components/query-error';
import { teamNameOf } from '../../../components/risk-index-switch';
import { Skeleton } from '../../../components/skeleton';
import { StaleNote } from '../../../components/stale-note';
import { useTeamChangesNote } from '../../../lib/recorded-deltas';
import { TierBadge } from '../../../components/tier-badge';
import { displayName, formalNameTitle } from '../../../lib/display-name';
import { TableExport, type ExportColumn } from '../../../components/table-export';
import { countrySpreadsheet } from '../../../components/country-spreadsheet-export';
import { fileStem } from '../../../lib/file-stem';
import { formatScore, humanise } from '../../../lib/format';
import type { HotspotFilters } from '../utils/filters';
import type { RankedHotspot } from '../utils/sort';
import { useHotspotRows } from '../hooks/use-hotspot-rows';
import { useAsOf } from '../../../lib/as-of';
import { HotspotFilterBar } from './hotspot-filters';
import { HotspotTable, type RowSelection } from './hotspot-table';
import { tierWord } from '../../../lib/tier-words';
import { t } from '../../../lib/i18n';

const OUTSIDE_MATCHES_SHOWN = 8;

/** In the team view, which figure the table ranks by (the provider's is the switch's other side). */
function teamNote(answer: unknown): string {
  const name = teamNameOf(answer);
  return name ? t('hotspots.teamNote', { name }) : '';
}

const score = (value: number | null | undefined) =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

/** The download of the rows shown: the table's columns, raw values, tiers in the table's words. */
const HOTSPOT_EXPORT_COLUMNS: ExportColumn<RankedHotspot>[] = [
  { key: 'rank', label: 'Rank', value: (row) => row.overallRank },
  { key: 'iso', label: 'ISO code', value: (row) => row.iso },
  { key: 'name', label: 'Country', value: (row) => displayName(row.iso, row.name) },
  { key: 'risk', label: 'Risk', value: (row) => score(row.risk) },
  { key: 'tier', label: 'Tier', value: (row) => (row.tier ? tierWord(row.tier) : null) },
  { key: 'static', label: 'Static', value: (row) => score(row.static) },
  { key: 'active', label: 'Active', value: (row) => score(row.active) },
  {
    key: 'delta_active',
    label: "Δ active, the provider's own figure (period not stated)",
    value: (row) => score(row.delta_active),
  },
  {
    key: 'delta_risk',
    label: 'Δ risk since the previous batch recorded here',
    value: (row) => score(row.recordedDelta),
  },
  {
    key: 'delta_headline',
    label: "Δ risk, the provider's own figure (period not stated)",
    value: (row) => score(row.delta_headline),
  },
  { key: 'confidence', label: 'Confidence', value: (row) => score(row.confidence) },
  {
    key: 'profile',
    label: 'Profile',
    value: (row) => (row.profile ? humanise(row.profile) : null),
  },
  {
    key: 'threat_vectors',
    label: 'Threat vectors',
    value: (row) => (row.threat_vectors ?? []).map(humanise).join(', '),
  },
  { key: 'source_count', label: 'Sources', value: (row) => score(row.source_count) },
];

/** "Top 20 of the latest run", or how many of them match the search. */
function shownWords(shown: number, ranked: number, latest: boolean, q: string): string {
  return shown === ranked
    ? t(latest ? 'hotspots.topLatest' : 'hotspots.topShown', { count: ranked })
    : t('hotspots.matching', { shown, count: ranked, q });
}

/**
 * The ranked hotspot table with its filters. `countries` (every country of the batch, when
 * loaded) supplies the tier options and finds search matches outside the top rows.
 */
export function HotspotsPanel({
  countries,
  onRowIntent,
  actions,
  rowAction,
  now,
  selection,
}: {
  countries: readonly CountrySummary[] | undefined;
  onRowIntent?: (iso: string) => void;
  /** Extra controls for the panel's head (the route puts the export links there). */
  actions?: ReactNode;
  /** A control per table row (see HotspotTable). */
  rowAction?: (row: { iso: string; name: string }) => ReactNode;
  now: number;
  /** Rows chosen for Compare; the route owns the choice and shows where it leads. */
  selection?: RowSelection;
}) {
  const location = useLocation();
  // Lets the country page's "back" link return to exactly this filtered view.
  const linkState = { from: `${location.pathname}${location.search}` };
  const { filters, setFilters, query, ranked, rows, tierOptions, outside } =
    useHotspotRows(countries);
  const latest = useAsOf() === null;
  const teamChanges = useTeamChangesNote();

  return (
    <section className="panel" aria-labelledby="hotspots-heading">
      <div className="panel-head">
        <h2 id="hotspots-heading">{t('hotspots.heading')}</h2>
        {query.data ? (
          <p className="panel-sub">
            {shownWords(rows.length, ranked.length, latest, filters.q)}
            {filters.tiers.length > 0 ? t('hotspots.filteredByTier') : ''}
            {teamNote(query.data.data)}
            {teamChanges ? ` · ${teamChanges}` : ''}
            {query.isPlaceholderData ? t('hotspots.updating') : ''}
          </p>
        ) : null}
        {actions}
      </div>
      <HotspotFilterBar
        filters={filters}
        tierOptions={tierOptions}
        tiersLoading={query.isPending && countries === undefined}
        onChange={setFilters}
      />
      <StaleNote
        fetched={query.data}
        refreshError={query.isRefetchError ? query.error : null}
        now={now}
      />
      {query.isPending ? (
        <Skeleton label={t('hotspots.loading')} lines={8} />
      ) : query.isError && !query.data ? (
        <QueryError
          what={t('hotspots.listError')}
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <>
          <HotspotRows
            rows={rows}
            ranked={ranked}
            filters={filters}
            onSort={(sort, dir) => setFilters({ sort, dir })}
            asOf={query.data?.data.as_of}
            table={{ onRowIntent, linkState, selection, rowAction }}
          />
          <OutsideMatches outside={outside} q={filters.q} linkState={linkState} />
        </>
      )}
    </section>
  );
}

/** Countries of the batch that match the search but are not among the hotspot rows. */
function OutsideMatches({
  outside,
  q,
  linkState,
}: {
  outside: readonly CountrySummary[];
  q: string;
  linkState: { from: string };
}) {
  if (outside.length === 0) return null;
  return (
    <div className="outside-matches">
      <h3>{t('hotspots.alsoMatching', { q })}</h3>
      <ul>
        {outside.slice(0, OUTSIDE_MATCHES_SHOWN).map((c) => (
          <li key={c.iso}>
            <Link
              to={`/country/${encodeURIComponent(c.iso)}`}
              state={linkState}
              title={formalNameTitle(c.iso, c.name)}
            >
              {displayName(c.iso, c.name)}
            </Link>{' '}
            <span className="muted">
              {t('hotspots.outsideRisk', { score: formatScore(c.risk) })}{' '}
              <TierBadge tier={c.tier} />
            </span>
          </li>
        ))}
      </ul>
      {outside.length > OUTSIDE_MATCHES_SHOWN ? (
        <p className="muted">
          {t('hotspots.andMore', { count: outside.length - OUTSIDE_MATCHES_SHOWN })}
        </p>
      ) : null}
    </div>
  );
}

/** The rows that match, with their download; or why there are none. */
function HotspotRows({
  rows,
  ranked,
  filters,
  onSort,
  asOf,
  table,
}: {
  rows: RankedHotspot[];
  ranked: readonly RankedHotspot[];
  filters: HotspotFilters;
  onSort: (sort: HotspotFilters['sort'], dir: HotspotFilters['dir']) => void;
  asOf: string | undefined;
  table: Pick<
    ComponentProps<typeof HotspotTable>,
    'onRowIntent' | 'linkState' | 'selection' | 'rowAction'
  >;
}) {
  if (rows.length === 0) {
    return (
      <p className="empty">
        {ranked.length === 0
          ? t('hotspots.noneForTiers')
          : t('hotspots.noneMatch', { count: ranked.length, q: filters.q })}
      </p>
    );
  }
  return (
    <>
      <HotspotTable rows={rows} filters={filters} onSort={onSort} {...table} />
      <TableExport
        columns={HOTSPOT_EXPORT_COLUMNS}
        spreadsheet={countrySpreadsheet<RankedHotspot>(
          asOf,
          (row) => row.overallRank,
          (row) => row.recordedDelta,
        )}
        rows={rows}
        asOf={asOf}
        filename={fileStem('hotspots', asOf ?? 'latest')}
      />
    </>
  );
}
