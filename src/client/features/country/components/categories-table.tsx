import { formatScore } from '../../../lib/format';
import { formatWeight, type CategoryRow } from '../utils/category-rows';
import { TableHead, TableRegion } from '../../../components/data-table';

export function CategoriesTable({ rows }: { rows: readonly CategoryRow[] }) {
  return (
    <TableRegion label="Category scores">
      <table className="data-table">
        <caption className="visually-hidden">Category scores, highest first</caption>
        <TableHead
          columns={[
            { label: 'Category' },
            { label: 'Score', className: 'num' },
            { label: 'Static', className: 'num' },
            { label: 'Active', className: 'num' },
            { label: 'Weight', className: 'num' },
          ]}
        />
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              <th scope="row">{row.label}</th>
              <td className="num strong">{formatScore(row.score)}</td>
              <td className="num">{formatScore(row.static)}</td>
              <td className="num">{formatScore(row.active)}</td>
              <td className="num">{formatWeight(row.weight)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}
