import { formatScore } from '../../../lib/format';
import { formatWeight, type CategoryRow } from '../utils/category-rows';

export function CategoriesTable({ rows }: { rows: readonly CategoryRow[] }) {
  return (
    <div className="table-scroll" role="region" aria-label="Category scores" tabIndex={0}>
      <table className="data-table">
        <caption className="visually-hidden">Category scores, highest first</caption>
        <thead>
          <tr>
            <th scope="col">Category</th>
            <th scope="col" className="num">
              Score
            </th>
            <th scope="col" className="num">
              Static
            </th>
            <th scope="col" className="num">
              Active
            </th>
            <th scope="col" className="num">
              Weight
            </th>
          </tr>
        </thead>
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
    </div>
  );
}
