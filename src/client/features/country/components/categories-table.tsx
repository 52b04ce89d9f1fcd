import { formatScore } from '../../../lib/format';
import { formatWeight, type CategoryRow } from '../utils/category-rows';
import { TableHead, TableRegion } from '../../../components/data-table';
import { t } from '../../../lib/i18n';

/** The categories' figures; with `ours`, our weights' shares beside the provider's weights. */
export function CategoriesTable({ rows, ours }: { rows: readonly CategoryRow[]; ours: boolean }) {
  return (
    <TableRegion label={t('categories.tableLabel')}>
      <table className="data-table">
        <caption className="visually-hidden">{t('categories.caption')}</caption>
        <TableHead
          columns={[
            { label: t('why.category') },
            { label: t('categories.score'), className: 'num' },
            { label: t('why.static'), className: 'num' },
            { label: t('why.active'), className: 'num' },
            { label: t(ours ? 'categories.providerWeight' : 'why.weight'), className: 'num' },
            ...(ours ? [{ label: t('why.ourWeight'), className: 'num' }] : []),
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
              {ours ? <td className="num">{formatWeight(row.ours)}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}
