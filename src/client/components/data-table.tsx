import type { ReactNode } from 'react';
import { formatScore } from '../lib/format';
import { TierBadge } from './tier-badge';

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

/** Rows chosen for Compare (issue 7); a table without it has no selection column. */
export interface RowSelection {
  selected: readonly string[];
  onToggle: (iso: string) => void;
}

/** The first cell of a selectable row: a checkbox naming the country it selects. */
export function SelectCell({
  iso,
  name,
  selection,
}: {
  iso: string;
  name: string;
  selection: RowSelection;
}) {
  return (
    <td>
      <input
        type="checkbox"
        className="row-select"
        checked={selection.selected.includes(iso)}
        onChange={() => selection.onToggle(iso)}
        aria-label={`Select ${name} for comparison`}
      />
    </td>
  );
}

/** Risk, tier, static and active: the cells every country table shows in this order. */
export function ScoreCells({
  row,
}: {
  row: {
    risk?: number | null;
    tier?: string | null;
    static?: number | null;
    active?: number | null;
  };
}) {
  return (
    <>
      <td className="num strong">{formatScore(row.risk)}</td>
      <td>
        <TierBadge tier={row.tier} />
      </td>
      <td className="num col-detail">{formatScore(row.static)}</td>
      <td className="num col-detail">{formatScore(row.active)}</td>
    </>
  );
}
