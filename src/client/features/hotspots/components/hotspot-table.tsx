import { useEffect, useMemo, type ReactNode } from 'react';
import { DataTable, type DataColumn, type RowSelection } from '../../../components/data-table';
import { Delta } from '../../../components/delta';
import { TierBadge } from '../../../components/tier-badge';
import { formatInteger, formatScore, humanise, na } from '../../../lib/format';
import { markOnceAfterPaint, PERF_MARKS } from '../../../lib/perf-marks';
import {
  headlineDeltaNote,
  recordedDeltaTitle,
  upstreamDeltaTitle,
} from '../../../lib/delta-labels';
import { HeadlineDelta } from '../../../components/headline-delta';
import type { HotspotFilters, SortKey } from '../utils/filters';
import { hotspotSortColumn, type RankedHotspot } from '../utils/sort';
import { CountryNameCell } from '../../../components/country-name-cell';
import { useAsOf } from '../../../lib/as-of';
import { t } from '../../../lib/i18n';

export type { RowSelection } from '../../../components/data-table';

type Column = DataColumn<RankedHotspot>;

/** A sortable column of the hotspot table. */
function sortable(key: SortKey, column: Omit<Column, 'key'>): Column {
  return { key, ...column, ...hotspotSortColumn(key) };
}

function hotspotColumns(
  linkState: unknown,
  rowAction: ((row: { iso: string; name: string }) => ReactNode) | undefined,
): Column[] {
  return [
    sortable('rank', {
      label: t('table.rank'),
      numeric: true,
      title: t('table.rankInRun'),
      cell: (row) => row.overallRank ?? na(),
    }),
    sortable('name', {
      label: t('table.country'),
      rowHeader: true,
      cell: (row) => (
        <>
          <CountryNameCell iso={row.iso} name={row.name} linkState={linkState} />
          {rowAction?.(row)}
        </>
      ),
    }),
    sortable('risk', {
      label: t('table.risk'),
      numeric: true,
      cellClass: 'strong',
      cell: (row) => formatScore(row.risk),
    }),
    sortable('tier', { label: t('table.tier'), cell: (row) => <TierBadge tier={row.tier} /> }),
    sortable('static', {
      label: t('table.static'),
      numeric: true,
      detail: true,
      cell: (row) => formatScore(row.static),
    }),
    sortable('active', {
      label: t('table.active'),
      numeric: true,
      detail: true,
      cell: (row) => formatScore(row.active),
    }),
    sortable('delta_active', {
      label: t('table.deltaActive'),
      numeric: true,
      detail: true,
      title: upstreamDeltaTitle.active(),
      cell: (row) => <Delta value={row.delta_active} />,
    }),
    sortable('delta_headline', {
      label: t('table.deltaRisk'),
      numeric: true,
      title: recordedDeltaTitle(),
      cell: (row) => <HeadlineDelta provider={row.delta_headline} recorded={row.recordedDelta} />,
    }),
    ...sourceColumns(),
  ];
}

/** The upstream's own description of each row: confidence, profile, threat vectors, sources. */
function sourceColumns(): Column[] {
  return [
    sortable('confidence', {
      label: t('table.confidence'),
      numeric: true,
      detail: true,
      cell: (row) => formatInteger(row.confidence),
    }),
    sortable('profile', {
      label: t('table.profile'),
      detail: true,
      // The upstream's labels, kept as it sent them (humanised, not translated).
      cell: (row) => <span translate="no">{humanise(row.profile)}</span>,
    }),
    // Threat vectors is a list: not sortable in any useful way.
    {
      key: 'threat_vectors',
      label: t('table.threatVectors'),
      detail: true,
      cellClass: 'vectors',
      cell: (row) =>
        row.threat_vectors && row.threat_vectors.length > 0 ? (
          <span translate="no">{row.threat_vectors.map(humanise).join(', ')}</span>
        ) : (
          na()
        ),
    },
    sortable('source_count', {
      label: t('table.sources'),
      numeric: true,
      detail: true,
      cell: (row) => formatInteger(row.source_count),
    }),
  ];
}

export function HotspotTable({
  rows,
  filters,
  onSort,
  onRowIntent,
  linkState,
  selection,
  rowAction,
}: {
  rows: readonly RankedHotspot[];
  filters: HotspotFilters;
  onSort: (sort: SortKey, dir: 'asc' | 'desc') => void;
  /** Hover or focus on a row: the country is likely next, so it can be fetched ahead. */
  onRowIntent?: (iso: string) => void;
  /** Router state for the country links (where "back" returns to). */
  linkState?: unknown;
  selection?: RowSelection;
  /** A control per row after the country (the route puts "follow" there). */
  rowAction?: (row: { iso: string; name: string }) => ReactNode;
}) {
  useEffect(() => markOnceAfterPaint(PERF_MARKS.hotspotTableDrawn), []);
  const columns = useMemo(() => hotspotColumns(linkState, rowAction), [linkState, rowAction]);
  const latest = useAsOf() === null;
  return (
    <DataTable
      label={t('hotspots.tableLabel')}
      caption={latest ? t('hotspots.captionLatest') : t('hotspots.captionShown')}
      className="hotspot-table"
      columns={columns}
      rows={rows}
      rowKey={(row) => row.iso}
      rowName={(row) => row.name}
      sort={{ key: filters.sort, dir: filters.dir }}
      onSort={(key, dir) => onSort(key as SortKey, dir)}
      onRowIntent={onRowIntent}
      selection={selection}
      // The target of the overview's "Skip to the hotspot table": the next Tab is row one.
      bodyId="hotspot-rows"
      note={`${headlineDeltaNote()} ${t('table.rankNoteRun')}`}
    />
  );
}
