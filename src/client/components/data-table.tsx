import type { ReactNode } from 'react';

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
