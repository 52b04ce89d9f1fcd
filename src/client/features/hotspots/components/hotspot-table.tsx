import { useEffect, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ScoreCells, SelectCell, type RowSelection } from '../../../components/data-table';
import { Delta } from '../../../components/delta';
import { displayName, formalNameTitle } from '../../../lib/display-name';
import { formatInteger, humanise, NA } from '../../../lib/format';
import { markOnceAfterPaint, PERF_MARKS } from '../../../lib/perf-marks';
import type { HotspotFilters, SortKey } from '../utils/filters';
import { defaultDir, type RankedHotspot } from '../utils/sort';

interface ColumnBase {
  label: string;
  numeric: boolean;
  /** Why a header is abbreviated, for hover and screen readers. */
  title?: string;
  /** Hidden on narrow screens (see components.css). */
  detail?: boolean;
}
/** Threat vectors is a list: not sortable in any useful way. */
type Column = ColumnBase & ({ key: SortKey } | { key: 'threat_vectors' });

const COLUMNS: Column[] = [
  { key: 'rank', label: '#', numeric: true, title: 'Rank in the latest run' },
  { key: 'name', label: 'Country', numeric: false },
  { key: 'risk', label: 'Risk', numeric: true },
  { key: 'tier', label: 'Tier', numeric: false },
  { key: 'static', label: 'Static', numeric: true, detail: true },
  { key: 'active', label: 'Active', numeric: true, detail: true },
  {
    key: 'delta_active',
    label: 'Δ active',
    numeric: true,
    detail: true,
    title: 'Change of the active score since the previous batch (about 7 to 17 hours earlier)',
  },
  {
    key: 'delta_headline',
    label: 'Δ risk',
    numeric: true,
    title: 'Change of the risk score since the previous batch (about 7 to 17 hours earlier)',
  },
  { key: 'confidence', label: 'Confidence', numeric: true, detail: true },
  { key: 'profile', label: 'Profile', numeric: false, detail: true },
  { key: 'threat_vectors', label: 'Threat vectors', numeric: false, detail: true },
  { key: 'source_count', label: 'Sources', numeric: true, detail: true },
];

function ariaSort(filters: HotspotFilters, key: Column['key']) {
  if (filters.sort !== key) return undefined;
  return filters.dir === 'asc' ? 'ascending' : 'descending';
}

export type { RowSelection };

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
  return (
    <div className="table-scroll" role="region" aria-label="Hotspot table" tabIndex={0}>
      <table className="data-table hotspot-table">
        <caption className="visually-hidden">
          Hotspots of the latest run; column headers sort the table.
        </caption>
        <thead>
          <tr>
            {selection ? (
              <th scope="col">
                <span className="visually-hidden">Select for comparison</span>
              </th>
            ) : null}
            {COLUMNS.map((column) => (
              <th
                key={column.key}
                scope="col"
                aria-sort={ariaSort(filters, column.key)}
                className={
                  [column.numeric ? 'num' : '', column.detail ? 'col-detail' : '']
                    .join(' ')
                    .trim() || undefined
                }
              >
                {column.key === 'threat_vectors' ? (
                  column.label
                ) : (
                  <SortButton column={column} filters={filters} onSort={onSort} />
                )}
              </th>
            ))}
          </tr>
        </thead>
        {/* The target of the overview's "Skip to the hotspot table": the next Tab is row one. */}
        <tbody id="hotspot-rows" tabIndex={-1}>
          {rows.map((row) => (
            <tr
              key={row.iso}
              onMouseEnter={() => onRowIntent?.(row.iso)}
              onFocus={() => onRowIntent?.(row.iso)}
            >
              {selection ? (
                <SelectCell iso={row.iso} name={row.name} selection={selection} />
              ) : null}
              <td className="num">{row.overallRank ?? NA}</td>
              <th scope="row" className="country-cell">
                <Link
                  to={`/country/${encodeURIComponent(row.iso)}`}
                  state={linkState}
                  title={formalNameTitle(row.iso, row.name)}
                >
                  {displayName(row.iso, row.name)}
                </Link>{' '}
                <span className="iso">{row.iso}</span>
                {rowAction?.(row)}
              </th>
              <ScoreCells row={row} />
              <td className="num col-detail">
                <Delta value={row.delta_active} />
              </td>
              <td className="num">
                <Delta value={row.delta_headline} />
              </td>
              <td className="num col-detail">{formatInteger(row.confidence)}</td>
              <td className="col-detail">{humanise(row.profile)}</td>
              <td className="vectors col-detail">
                {row.threat_vectors && row.threat_vectors.length > 0
                  ? row.threat_vectors.map(humanise).join(', ')
                  : NA}
              </td>
              <td className="num col-detail">{formatInteger(row.source_count)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="table-note">
        Δ: change since the previous batch (7 to 17 hours earlier). # is the rank in the whole run.
      </p>
    </div>
  );
}

function SortButton({
  column,
  filters,
  onSort,
}: {
  column: Column & { key: SortKey };
  filters: HotspotFilters;
  onSort: (sort: SortKey, dir: 'asc' | 'desc') => void;
}) {
  const active = filters.sort === column.key;
  const next = active ? (filters.dir === 'asc' ? 'desc' : 'asc') : defaultDir(column.key);
  return (
    <button
      type="button"
      className="sort-button"
      title={column.title}
      onClick={() => onSort(column.key, next)}
    >
      {column.label}
      <span aria-hidden="true" className="sort-mark">
        {active ? (filters.dir === 'asc' ? ' ▲' : ' ▼') : ' ↕'}
      </span>
      {column.title ? <span className="visually-hidden"> ({column.title})</span> : null}
    </button>
  );
}
