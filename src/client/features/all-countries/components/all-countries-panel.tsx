import { useId, useMemo, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import type { CountrySummary } from '../../../../shared/bff-api';
import type { ReferenceCountry } from '../../../../shared/history-api';
import { compareTiers, tierLabel } from '../../../../shared/tiers';
import { DataTable, sortRows, type DataColumn } from '../../../components/data-table';
import { Delta } from '../../../components/delta';
import { HeadlineDelta } from '../../../components/headline-delta';
import { countrySpreadsheet } from '../../../components/country-spreadsheet-export';
import { headlineChange } from '../../../../shared/headline-change';
import { useRecordedRiskDeltas } from '../../../lib/recorded-deltas';
import { useRiskIndex } from '../../../lib/risk-index';
import { QueryError } from '../../../components/query-error';
import { Skeleton } from '../../../components/skeleton';
import { TableExport, type ExportColumn } from '../../../components/table-export';
import { TierBadge } from '../../../components/tier-badge';
import { TierFilter } from '../../../components/tier-filter';
import { useAsOf } from '../../../lib/as-of';
import { useSearchAliases } from '../../../lib/country-alias-queries';
import { matchesCountry } from '../../../lib/country-search';
import { fileStem } from '../../../lib/file-stem';
import {
  headlineDeltaNote,
  recordedDeltaTitle,
  upstreamDeltaTitle,
} from '../../../lib/delta-labels';
import { displayName } from '../../../lib/display-name';
import { formatScore, na } from '../../../lib/format';
import { useAllCountriesView, type AllCountriesSortKey } from '../hooks/use-all-countries-view';
import { useTableChoice } from '../hooks/use-table-choice';
import {
  byRisk,
  inRegion,
  regionGroups,
  withRegions,
  type AllCountriesRow,
} from '../utils/regions';
import { CountryNameCell, CountrySearchField } from '../../../components/country-name-cell';
import { SelectField } from '../../../components/select-field';
import { tierWord } from '../../../lib/tier-words';
import { t } from '../../../lib/i18n';

interface RankedRow extends AllCountriesRow {
  /** Rank in the whole batch by risk (1 = highest), kept when the table is filtered or sorted. */
  rank: number;
  /** Risk change since the batch recorded before this one, by this dashboard (null: none). */
  recordedDelta: number | null;
}

type Column = DataColumn<RankedRow> & { key: AllCountriesSortKey };

const numberOrNull = (value: number | null | undefined) =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

/** The provider's risk of a row in the team view (issue 31), which keeps it under `provider`. */
const providerRisk = (row: RankedRow): number | null =>
  numberOrNull((row as { provider?: { risk?: number | null } }).provider?.risk);

/**
 * In the team view (issue 31) the risk column is the team index's and the provider's stands
 * beside it, labelled; in the provider's view the table is as it was.
 */
function columns(linkState: unknown, team: boolean): Column[] {
  const all = baseColumns(linkState);
  if (!team) return all;
  const at = all.findIndex((column) => column.key === 'risk');
  const ours: Column = { ...all[at]!, label: t('table.teamIndex') };
  const theirs: Column = {
    key: 'provider_risk',
    label: t('table.providerRisk'),
    numeric: true,
    sortValue: providerRisk,
    cell: (row) => formatScore(providerRisk(row)),
  };
  return [...all.slice(0, at), ours, theirs, ...all.slice(at + 1)];
}

function baseColumns(linkState: unknown): Column[] {
  return [
    {
      key: 'rank',
      label: t('table.rank'),
      numeric: true,
      title: t('table.rankInBatch'),
      firstDir: 'asc',
      sortValue: (row) => row.rank,
      cell: (row) => row.rank,
    },
    {
      key: 'name',
      label: t('table.country'),
      rowHeader: true,
      sortValue: (row) => displayName(row.iso, row.name),
      cell: (row) => <CountryNameCell iso={row.iso} name={row.name} linkState={linkState} />,
    },
    {
      key: 'region',
      label: t('table.region'),
      detail: true,
      sortValue: (row) => row.subregion ?? row.region,
      // The reference data's UN region names, as it gives them.
      cell: (row) => <span translate="no">{row.subregion ?? row.region ?? na()}</span>,
    },
    {
      key: 'risk',
      label: t('table.risk'),
      numeric: true,
      cellClass: 'strong',
      sortValue: (row) => numberOrNull(row.risk),
      cell: (row) => formatScore(row.risk),
    },
    {
      key: 'tier',
      label: t('table.tier'),
      firstDir: 'desc',
      sortValue: (row) => row.tier ?? null,
      // Severity order: descending puts the most severe first.
      compare: (a, b) => compareTiers(String(b), String(a)),
      cell: (row) => <TierBadge tier={row.tier} />,
    },
    {
      key: 'static',
      label: t('table.static'),
      numeric: true,
      detail: true,
      sortValue: (row) => numberOrNull(row.static),
      cell: (row) => formatScore(row.static),
    },
    {
      key: 'active',
      label: t('table.active'),
      numeric: true,
      detail: true,
      sortValue: (row) => numberOrNull(row.active),
      cell: (row) => formatScore(row.active),
    },
    {
      key: 'delta_active',
      label: t('table.deltaActive'),
      numeric: true,
      detail: true,
      title: upstreamDeltaTitle.active(),
      sortValue: (row) => numberOrNull(row.delta_active),
      cell: (row) => <Delta value={row.delta_active} />,
    },
    {
      key: 'delta_headline',
      label: t('table.deltaRisk'),
      numeric: true,
      title: recordedDeltaTitle(),
      // Sorted by the figure shown: ours where recorded (issue 33).
      sortValue: (row) => headlineChange(row.delta_headline, row.recordedDelta).value,
      cell: (row) => <HeadlineDelta provider={row.delta_headline} recorded={row.recordedDelta} />,
    },
  ];
}

/** The download's columns: the table's, raw values, tiers in the words the table uses. */
const EXPORT_COLUMNS: ExportColumn<RankedRow>[] = [
  { key: 'rank', label: 'Rank', value: (row) => row.rank },
  { key: 'iso', label: 'ISO code', value: (row) => row.iso },
  { key: 'name', label: 'Country', value: (row) => displayName(row.iso, row.name) },
  { key: 'region', label: 'Region', value: (row) => row.region },
  { key: 'subregion', label: 'Subregion', value: (row) => row.subregion },
  { key: 'risk', label: 'Risk', value: (row) => numberOrNull(row.risk) },
  { key: 'tier', label: 'Tier', value: (row) => (row.tier ? tierWord(row.tier) : null) },
  { key: 'static', label: 'Static', value: (row) => numberOrNull(row.static) },
  { key: 'active', label: 'Active', value: (row) => numberOrNull(row.active) },
  {
    key: 'delta_active',
    label: "Δ active, the provider's own figure (period not stated)",
    value: (row) => numberOrNull(row.delta_active),
  },
  {
    key: 'delta_risk',
    label: 'Δ risk since the previous batch recorded here',
    value: (row) => row.recordedDelta,
  },
  {
    key: 'delta_headline',
    label: "Δ risk, the provider's own figure (period not stated)",
    value: (row) => numberOrNull(row.delta_headline),
  },
];

interface AllCountriesPanelProps {
  countries: readonly CountrySummary[] | undefined;
  /** The batch the countries come from (named in the downloads). */
  asOf: string | undefined;
  error: Error | null;
  onRetry: () => void;
  /** The reference list (regions); the table shows without it, the filter waits for it. */
  reference: readonly ReferenceCountry[] | undefined;
  onRowIntent?: (iso: string) => void;
  actions?: ReactNode;
  /** Rows chosen for Compare; the route owns the choice (shared with the hotspot table). */
  selection: { selected: readonly string[]; onToggle: (iso: string) => void };
  /** Where the choice leads ("Compare 3"), shown beside the filter. */
  selectionBar: ReactNode;
}

/**
 * Every country of the latest batch, or of `?as_of=` (`/api/countries`, not only the top 50), with what the hotspot
 * table has: sortable headers, search, a tier filter, and downloads of the rows shown; plus a UN
 * region filter (`?region=`). Rows can be selected for Compare.
 */
export function AllCountriesPanel({
  countries,
  asOf,
  error,
  onRetry,
  reference,
  onRowIntent,
  actions,
  selection,
  selectionBar,
}: AllCountriesPanelProps) {
  const location = useLocation();
  // The rows are the route's (`/api/countries?as_of=`): the words say which batch they are of.
  const latest = useAsOf() === null;
  const linkState = useMemo(
    () => ({ from: `${location.pathname}${location.search}` }),
    [location.pathname, location.search],
  );
  const { region } = useTableChoice();
  const [view] = useAllCountriesView();
  const team = useRiskIndex()[0] === 'team';
  const tableColumns = useMemo(() => columns(linkState, team), [linkState, team]);
  const { ranked, rows } = useAllCountriesRows(countries, reference, asOf, tableColumns);
  const tierOptions = useMemo(
    () => [...new Set(ranked.flatMap((row) => (row.tier ? [row.tier] : [])))],
    [ranked],
  );
  const narrowed = [
    region ? region.replace('/', ' › ') : '',
    view.tiers.length > 0
      ? t('allCountries.tierFilter', { tiers: view.tiers.map(tierLabel).join(', ') })
      : '',
    view.q.trim() ? t('allCountries.matching', { q: view.q.trim() }) : '',
  ].filter(Boolean);

  return (
    <section className="panel" aria-labelledby="all-countries-heading">
      <div className="panel-head">
        <h2 id="all-countries-heading">{t('allCountries.heading')}</h2>
        {countries ? (
          <p className="panel-sub">
            {t(latest ? 'allCountries.countLatest' : 'allCountries.countShown', {
              shown: rows.length,
              count: countries.length,
            })}
            {narrowed.length > 0 ? ` · ${narrowed.join(' · ')}` : ''}
          </p>
        ) : null}
        {actions}
      </div>
      <AllCountriesFilters
        tierOptions={tierOptions}
        loading={!countries}
        reference={reference}
        selectionBar={selectionBar}
      />
      {!countries ? (
        error ? (
          <QueryError what={t('allCountries.error')} error={error} onRetry={onRetry} />
        ) : (
          <Skeleton label={t('allCountries.loading')} lines={8} />
        )
      ) : rows.length === 0 ? (
        <p className="empty">
          {latest ? t('allCountries.noneLatest') : t('allCountries.noneShown')}
        </p>
      ) : (
        <AllCountriesTable
          rows={rows}
          columns={tableColumns}
          latest={latest}
          asOf={asOf}
          onRowIntent={onRowIntent}
          selection={selection}
        />
      )}
    </section>
  );
}

/** The batch's rows ranked by risk with their recorded change; and those the view shows, sorted. */
function useAllCountriesRows(
  countries: readonly CountrySummary[] | undefined,
  reference: readonly ReferenceCountry[] | undefined,
  asOf: string | undefined,
  tableColumns: Column[],
) {
  const { region } = useTableChoice();
  const [view] = useAllCountriesView();
  const aliases = useSearchAliases(view.q.trim() !== '');
  const recorded = useRecordedRiskDeltas(asOf);
  const team = useRiskIndex()[0] === 'team';
  const ranked = useMemo<RankedRow[]>(
    () =>
      withRegions(countries ?? [], reference)
        .sort(byRisk)
        .map((row, index) => ({
          ...row,
          rank: index + 1,
          recordedDelta: recorded?.get(row.iso.toUpperCase()) ?? null,
          // The team view's change is the team index's or none: never the provider's figure.
          ...(team ? { delta_headline: null } : {}),
        })),
    [countries, reference, recorded, team],
  );
  const rows = useMemo(
    () =>
      sortRows(
        inRegion(ranked, region).filter(
          (row) =>
            (view.tiers.length === 0 || view.tiers.includes((row.tier ?? '').toLowerCase())) &&
            matchesCountry(view.q, row.name, row.iso, aliases),
        ) as RankedRow[],
        tableColumns,
        { key: view.sort, dir: view.dir },
      ),
    [ranked, region, view, aliases, tableColumns],
  );
  return { ranked, rows };
}

/** Tier, region and search: the view's filters, in its URL. */
function AllCountriesFilters({
  tierOptions,
  loading,
  reference,
  selectionBar,
}: {
  tierOptions: string[];
  loading: boolean;
  reference: readonly ReferenceCountry[] | undefined;
  selectionBar: ReactNode;
}) {
  const id = useId();
  const { region, setRegion } = useTableChoice();
  const [view, setView] = useAllCountriesView();
  const groups = useMemo(() => regionGroups(reference ?? []), [reference]);
  return (
    <div className="filter-bar">
      <TierFilter
        selected={view.tiers}
        options={tierOptions}
        loading={loading}
        onChange={(tiers) => setView({ tiers })}
      />
      <SelectField
        label={t('allCountries.region')}
        value={region}
        onChange={setRegion}
        disabled={!reference}
      >
        <option value="">{t('allCountries.allRegions')}</option>
        {/* A filter from a hand-edited URL stays visible even if no group holds it. */}
        {region &&
        !groups.some((g) => g.region === region || g.subregions.some((s) => s.value === region)) ? (
          <option value={region}>{region}</option>
        ) : null}
        {groups.map((group) => (
          <optgroup key={group.region} label={group.region}>
            <option value={group.region}>
              {t('allCountries.regionAll', { region: group.region })}
            </option>
            {group.subregions.map((sub) => (
              <option key={sub.value} value={sub.value}>
                {sub.label}
              </option>
            ))}
          </optgroup>
        ))}
      </SelectField>
      <CountrySearchField id={`${id}-q`} value={view.q} onChange={(q) => setView({ q })} />
      {selectionBar}
    </div>
  );
}

/** The rows shown and their one download (issue 33, point 2: the rows shown, nothing else). */
function AllCountriesTable({
  rows,
  columns: tableColumns,
  latest,
  asOf,
  onRowIntent,
  selection,
}: {
  rows: RankedRow[];
  columns: Column[];
  latest: boolean;
  asOf: string | undefined;
  onRowIntent?: (iso: string) => void;
  selection: { selected: readonly string[]; onToggle: (iso: string) => void };
}) {
  const [view, setView] = useAllCountriesView();
  return (
    <>
      <DataTable
        label={t('allCountries.tableLabel')}
        caption={latest ? t('allCountries.captionLatest') : t('allCountries.captionShown')}
        className="all-countries-table"
        bodyId="all-countries-rows"
        columns={tableColumns}
        rows={rows}
        rowKey={(row) => row.iso}
        rowName={(row) => displayName(row.iso, row.name)}
        sort={{ key: view.sort, dir: view.dir }}
        onSort={(key, dir) => setView({ sort: key as AllCountriesSortKey, dir })}
        onRowIntent={onRowIntent}
        selection={selection}
        note={`${headlineDeltaNote()} ${t('table.rankNoteBatch')}`}
      />
      <TableExport
        columns={EXPORT_COLUMNS}
        spreadsheet={countrySpreadsheet<RankedRow>(
          asOf,
          (row) => row.rank,
          (row) => row.recordedDelta,
        )}
        rows={rows}
        asOf={asOf}
        filename={fileStem('all-countries', asOf ?? 'latest')}
      />
    </>
  );
}
