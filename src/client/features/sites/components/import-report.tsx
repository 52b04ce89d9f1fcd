import type { ImportedRow, ImportResponse } from '../../../../shared/sites-api';
import { TableHead, TableRegion } from '../../../components/data-table';
import { formatInteger } from '../../../lib/format';

const SHOWN = 50;

function plural(count: number, one: string, many = `${one}s`): string {
  return `${formatInteger(count)} ${count === 1 ? one : many}`;
}

/** One sentence of what an import did, or would do in a dry run. */
export function importSummary(answer: ImportResponse): string {
  const parts = [
    `${formatInteger(answer.created.length)} ${answer.dry_run ? 'to create' : 'created'}`,
    `${formatInteger(answer.updated.length)} ${answer.dry_run ? 'to update' : 'updated'}`,
    `${formatInteger(answer.unchanged)} unchanged`,
    `${formatInteger(answer.rejected.length)} rejected`,
  ];
  const head = answer.dry_run
    ? `Checked ${plural(answer.rows, 'row')}, nothing stored yet`
    : `Imported ${plural(answer.rows, 'row')}`;
  return `${head}: ${parts.join(', ')}. ${plural(answer.total, 'site')} ${answer.dry_run ? 'after the import' : 'stored'}.`;
}

function placed(row: ImportedRow): string {
  return row.placed_by === 'distance'
    ? `${row.iso} (placed by distance: near its coast or border)`
    : row.iso;
}

function RowsTable({ caption, rows }: { caption: string; rows: readonly ImportedRow[] }) {
  if (rows.length === 0) return null;
  return (
    <TableRegion label={`${caption} table`}>
      <table className="data-table">
        <caption>
          {caption}
          {rows.length > SHOWN ? ` (first ${SHOWN} of ${formatInteger(rows.length)})` : ''}
        </caption>
        <TableHead
          columns={[{ label: 'Row', className: 'num' }, { label: 'Ref' }, { label: 'Country' }]}
        />
        <tbody>
          {rows.slice(0, SHOWN).map((row) => (
            <tr key={`${row.row}-${row.ref}`}>
              <td className="num">{row.row}</td>
              <th scope="row">{row.ref}</th>
              <td>{placed(row)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}

/** The import's answer: the sentence, every rejected row with its reason, the rows kept. */
export function ImportReport({ answer }: { answer: ImportResponse }) {
  const { rejected } = answer;
  return (
    <div className="import-report">
      <p role="status" className="import-summary">
        {importSummary(answer)}
      </p>
      {rejected.length > 0 ? (
        <TableRegion label="Rejected rows table">
          <table className="data-table rejected-rows">
            <caption>
              Rejected rows{answer.dry_run ? ' (fix them and check again; the others import)' : ''}
            </caption>
            <TableHead
              columns={[{ label: 'Row', className: 'num' }, { label: 'Ref' }, { label: 'Reason' }]}
            />
            <tbody>
              {rejected.slice(0, SHOWN * 4).map((row) => (
                <tr key={`${row.row}-${row.ref ?? ''}`}>
                  <td className="num">{row.row}</td>
                  <td>{row.ref ?? '—'}</td>
                  <td>{row.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      ) : null}
      <RowsTable
        caption={answer.dry_run ? 'Sites to create' : 'Sites created'}
        rows={answer.created}
      />
      <RowsTable
        caption={answer.dry_run ? 'Sites to update' : 'Sites updated'}
        rows={answer.updated}
      />
    </div>
  );
}
