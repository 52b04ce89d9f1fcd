import type { ReactNode } from 'react';
import { t } from '../lib/i18n';

/**
 * A table's scrolling box, named for screen readers and focusable: on a narrow screen the table
 * scrolls sideways, and keys must reach it too.
 */
export function TableRegion({
  label,
  className,
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div
      className={className ? `table-scroll ${className}` : 'table-scroll'}
      role="region"
      aria-label={label}
      tabIndex={0}
    >
      {children}
    </div>
  );
}

/** One column heading of a data table; `className` carries `num` (right-aligned) and the like. */
export interface TableColumn {
  label: ReactNode;
  className?: string;
}

/** The header row every data table repeats: one `<th scope="col">` per column. */
export function TableHead({ columns }: { columns: TableColumn[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column, i) => (
          <th key={i} scope="col" className={column.className}>
            {column.label}
          </th>
        ))}
      </tr>
    </thead>
  );
}

export type SortDir = 'asc' | 'desc';

/** One column: its header, its cell, and (when sortable) the value it sorts by. */
export interface DataColumn<Row> {
  key: string;
  label: string;
  numeric?: boolean;
  /** Hidden on narrow screens (see components.css). */
  detail?: boolean;
  /** What an abbreviated header means, for hover and screen readers. */
  title?: string;
  /** The row's header cell (`th scope="row"`): the country. */
  rowHeader?: boolean;
  /** Extra class of the cells (not the header), e.g. `strong`. */
  cellClass?: string;
  /** Sortable columns say what they sort by; without it the header is plain text. */
  sortValue?: (row: Row) => number | string | null;
  /** Order of two present sort values when not "numbers by size, text A to Z" (tiers). */
  compare?: (a: number | string, b: number | string) => number;
  /** The first click's direction; numbers read best largest first, text A to Z. */
  firstDir?: SortDir;
  cell: (row: Row) => ReactNode;
}

export interface TableSort {
  key: string;
  dir: SortDir;
}

/** Rows chosen for Compare; without it the table has no selection column. */
export interface RowSelection {
  selected: readonly string[];
  onToggle: (key: string) => void;
}

function firstDirOf<Row>(column: DataColumn<Row>): SortDir {
  return column.firstDir ?? (column.numeric ? 'desc' : 'asc');
}

/**
 * Rows sorted by a column (a copy); missing values go last whichever the direction, and ties
 * keep the order the rows came in (the caller's default order: rank).
 */
export function sortRows<Row>(
  rows: readonly Row[],
  columns: readonly DataColumn<Row>[],
  sort: TableSort,
): Row[] {
  const column = columns.find((c) => c.key === sort.key);
  const value = column?.sortValue;
  if (!column || !value) return [...rows];
  const sign = sort.dir === 'asc' ? 1 : -1;
  const keyed = rows.map((row, index) => ({ row, index, v: value(row) }));
  keyed.sort((a, b) => {
    if (a.v === null || b.v === null) {
      return a.v === b.v ? a.index - b.index : a.v === null ? 1 : -1;
    }
    const order = column.compare
      ? column.compare(a.v, b.v)
      : typeof a.v === 'number' && typeof b.v === 'number'
        ? a.v - b.v
        : String(a.v).localeCompare(String(b.v));
    return order === 0 ? a.index - b.index : sign * order;
  });
  return keyed.map((k) => k.row);
}

interface DataTableProps<Row> {
  /** The scrollable region's name ("Hotspot table"). */
  label: string;
  caption: string;
  className: string;
  columns: readonly DataColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** Names the row in its checkbox ("Select Mali for comparison"). */
  rowName: (row: Row) => string;
  sort: TableSort;
  onSort: (key: string, dir: SortDir) => void;
  /** Hover or focus on a row: the country is likely next, so it can be fetched ahead. */
  onRowIntent?: (key: string) => void;
  selection?: RowSelection;
  /** A skip link's target: the next Tab is row one. */
  bodyId?: string;
  note?: ReactNode;
}

/**
 * The overview's tables (hotspots, all countries): one markup for sortable headers with
 * `aria-sort`, the Compare checkboxes, prefetch on row intent and a scrollable region.
 */
export function DataTable<Row>({
  label,
  caption,
  className,
  columns,
  rows,
  rowKey,
  rowName,
  sort,
  onSort,
  onRowIntent,
  selection,
  bodyId,
  note,
}: DataTableProps<Row>) {
  return (
    <TableRegion label={label}>
      <table className={`data-table sortable-table ${className}`}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <HeaderRow columns={columns} sort={sort} onSort={onSort} selectable={!!selection} />
        </thead>
        <tbody id={bodyId} tabIndex={bodyId ? -1 : undefined}>
          {rows.map((row) => (
            <BodyRow
              key={rowKey(row)}
              row={row}
              rowKey={rowKey(row)}
              rowName={rowName}
              columns={columns}
              selection={selection}
              onRowIntent={onRowIntent}
            />
          ))}
        </tbody>
      </table>
      {note ? <p className="table-note">{note}</p> : null}
    </TableRegion>
  );
}

/** The column headers, sortable ones as buttons with `aria-sort`. */
function HeaderRow<Row>({
  columns,
  sort,
  onSort,
  selectable,
}: {
  columns: readonly DataColumn<Row>[];
  sort: TableSort;
  onSort: (key: string, dir: SortDir) => void;
  selectable: boolean;
}) {
  return (
    <tr>
      {selectable ? (
        <th scope="col">
          <span className="visually-hidden">{t('table.selectForComparison')}</span>
        </th>
      ) : null}
      {columns.map((column) => (
        <th
          key={column.key}
          scope="col"
          aria-sort={
            sort.key === column.key && column.sortValue
              ? sort.dir === 'asc'
                ? 'ascending'
                : 'descending'
              : undefined
          }
          className={classes(column.numeric && 'num', column.detail && 'col-detail')}
        >
          {column.sortValue ? (
            <SortButton column={column} sort={sort} onSort={onSort} />
          ) : (
            column.label
          )}
        </th>
      ))}
    </tr>
  );
}

/** One row: its Compare checkbox, its row header and cells; hover or focus prefetches. */
function BodyRow<Row>({
  row,
  rowKey: key,
  rowName,
  columns,
  selection,
  onRowIntent,
}: {
  row: Row;
  rowKey: string;
  rowName: (row: Row) => string;
  columns: readonly DataColumn<Row>[];
  selection?: RowSelection;
  onRowIntent?: (key: string) => void;
}) {
  return (
    <tr onMouseEnter={() => onRowIntent?.(key)} onFocus={() => onRowIntent?.(key)}>
      {selection ? (
        <td>
          <input
            type="checkbox"
            className="row-select"
            checked={selection.selected.includes(key)}
            onChange={() => selection.onToggle(key)}
            aria-label={t('table.selectRow', { name: rowName(row) })}
          />
        </td>
      ) : null}
      {columns.map((column) => {
        const className = classes(
          column.numeric && 'num',
          column.detail && 'col-detail',
          column.rowHeader && 'country-cell',
          column.cellClass,
        );
        return column.rowHeader ? (
          <th key={column.key} scope="row" className={className}>
            {column.cell(row)}
          </th>
        ) : (
          <td key={column.key} className={className}>
            {column.cell(row)}
          </td>
        );
      })}
    </tr>
  );
}

function classes(...names: (string | false | undefined)[]): string | undefined {
  return names.filter(Boolean).join(' ') || undefined;
}

function SortButton<Row>({
  column,
  sort,
  onSort,
}: {
  column: DataColumn<Row>;
  sort: TableSort;
  onSort: (key: string, dir: SortDir) => void;
}) {
  const active = sort.key === column.key;
  const next = active ? (sort.dir === 'asc' ? 'desc' : 'asc') : firstDirOf(column);
  return (
    <button
      type="button"
      className="sort-button"
      title={column.title}
      onClick={() => onSort(column.key, next)}
    >
      {column.label}
      <span aria-hidden="true" className="sort-mark">
        {active ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : ' ↕'}
      </span>
      {column.title ? <span className="visually-hidden"> ({column.title})</span> : null}
    </button>
  );
}
