import { useEffect, useMemo, type ReactNode } from 'react';
import { DataTable, type DataColumn, type RowSelection } from '../../../components/data-table';
import { Delta } from '../../../components/delta';
import { TierBadge } from '../../../components/tier-badge';
import { formatInteger, formatScore, humanise, NA } from '../../../lib/format';
import { markOnceAfterPaint, PERF_MARKS } from '../../../lib/perf-marks';
import {
  HEADLINE_DELTA_NOTE,
  RECORDED_DELTA_TITLE,
  UPSTREAM_DELTA_TITLE,
} from '../../../lib/delta-labels';
import { HeadlineDelta } from '../../../components/headline-delta';
import type { HotspotFilters, SortKey } from '../utils/filters';
import { hotspotSortColumn, type RankedHotspot } from '../utils/sort';
import { CountryNameCell } from '../../../components/country-name-cell';
import { useAsOf } from '../../../lib/as-of';

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
      label: '#',
      numeric: true,
      title: 'Rank in the latest run',
      cell: (row) => row.overallRank ?? NA,
    }),
    sortable('name', {
      label: 'Country',
      rowHeader: true,
      cell: (row) => (
        <>
          <CountryNameCell iso={row.iso} name={row.name} linkState={linkState} />
          {rowAction?.(row)}
        </>
      ),
    }),
    sortable('risk', {
      label: 'Risk',
      numeric: true,
      cellClass: 'strong',
      cell: (row) => formatScore(row.risk),
    }),
    sortable('tier', { label: 'Tier', cell: (row) => <TierBadge tier={row.tier} /> }),
    sortable('static', {
      label: 'Static',
      numeric: true,
      detail: true,
      cell: (row) => formatScore(row.static),
    }),
    sortable('active', {
      label: 'Active',
      numeric: true,
      detail: true,
      cell: (row) => formatScore(row.active),
    }),
    sortable('delta_active', {
      label: 'Δ active',
      numeric: true,
      detail: true,
      title: UPSTREAM_DELTA_TITLE.active,
      cell: (row) => <Delta value={row.delta_active} />,
    }),
    sortable('delta_headline', {
      label: 'Δ risk',
      numeric: true,
      title: RECORDED_DELTA_TITLE,
      cell: (row) => <HeadlineDelta provider={row.delta_headline} recorded={row.recordedDelta} />,
    }),
    sortable('confidence', {
      label: 'Confidence',
      numeric: true,
      detail: true,
      cell: (row) => formatInteger(row.confidence),
    }),
    sortable('profile', { label: 'Profile', detail: true, cell: (row) => humanise(row.profile) }),
    // Threat vectors is a list: not sortable in any useful way.
    {
      key: 'threat_vectors',
      label: 'Threat vectors',
      detail: true,
      cellClass: 'vectors',
      cell: (row) =>
        row.threat_vectors && row.threat_vectors.length > 0
          ? row.threat_vectors.map(humanise).join(', ')
          : NA,
    },
    sortable('source_count', {
      label: 'Sources',
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
  const run = useAsOf() === null ? 'the latest run' : 'the batch shown';
  return (
    <DataTable
      label="Hotspot table"
      caption={`Hotspots of ${run}; column headers sort the table.`}
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
      note={`${HEADLINE_DELTA_NOTE} # is the rank in the whole run.`}
    />
  );
}
