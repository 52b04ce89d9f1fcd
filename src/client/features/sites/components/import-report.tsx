import type { ImportedRow, ImportResponse } from '../../../../shared/sites-api';
import { TableHead, TableRegion } from '../../../components/data-table';
import { formatInteger } from '../../../lib/format';
import { t } from '../../../lib/i18n';

const SHOWN = 50;

/** A count for a plural message: `count` picks the form (CLDR), `shown` is in the page's digits. */
const counted = (count: number) => ({ count, shown: formatInteger(count) });
const shown = (count: number) => ({ shown: formatInteger(count) });

/** One sentence of what an import did, or would do in a dry run. */
export function importSummary(answer: ImportResponse): string {
  const dry = answer.dry_run;
  const parts = [
    dry
      ? t('sites.toCreate', shown(answer.created.length))
      : t('sites.created', counted(answer.created.length)),
    dry
      ? t('sites.toUpdate', shown(answer.updated.length))
      : t('sites.updated', counted(answer.updated.length)),
    t('sites.unchanged', counted(answer.unchanged)),
    t('sites.rejected', counted(answer.rejected.length)),
  ];
  const head = t(dry ? 'sites.checkedRows' : 'sites.importedRows', counted(answer.rows));
  const total = t(dry ? 'sites.sitesAfter' : 'sites.sitesStored', counted(answer.total));
  return t('sites.importSummary', {
    head,
    parts: parts.join(t('sites.partsSeparator')),
    total,
  });
}

function placed(row: ImportedRow): string {
  return row.placed_by === 'distance' ? t('sites.placedDistance', { iso: row.iso }) : row.iso;
}

function RowsTable({ caption, rows }: { caption: string; rows: readonly ImportedRow[] }) {
  if (rows.length === 0) return null;
  return (
    <TableRegion label={t('sites.tableOf', { caption })}>
      <table className="data-table">
        <caption>
          {caption}
          {rows.length > SHOWN
            ? t('sites.firstOf', { shown: formatInteger(SHOWN), total: formatInteger(rows.length) })
            : ''}
        </caption>
        <TableHead
          columns={[
            { label: t('sites.row'), className: 'num' },
            { label: t('sites.ref') },
            { label: t('sites.country') },
          ]}
        />
        <tbody>
          {rows.slice(0, SHOWN).map((row) => (
            <tr key={`${row.row}-${row.ref}`}>
              <td className="num">{row.row}</td>
              <th scope="row" translate="no">
                {row.ref}
              </th>
              <td>{placed(row)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}

/**
 * The import's answer: the sentence, every rejected row with its reason (the BFF's words, which
 * name the file's own columns), the rows kept.
 */
export function ImportReport({ answer }: { answer: ImportResponse }) {
  const { rejected } = answer;
  return (
    <div className="import-report">
      <p role="status" className="import-summary">
        {importSummary(answer)}
      </p>
      {rejected.length > 0 ? (
        <TableRegion label={t('sites.rejectedRowsTable')}>
          <table className="data-table rejected-rows">
            <caption>
              {t('sites.rejectedRows')}
              {answer.dry_run ? t('sites.rejectedHint') : ''}
            </caption>
            <TableHead
              columns={[
                { label: t('sites.row'), className: 'num' },
                { label: t('sites.ref') },
                { label: t('sites.reason') },
              ]}
            />
            <tbody>
              {rejected.slice(0, SHOWN * 4).map((row) => (
                <tr key={`${row.row}-${row.ref ?? ''}`}>
                  <td className="num">{row.row}</td>
                  <td translate="no">{row.ref ?? '—'}</td>
                  <td lang="en">{row.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      ) : null}
      <RowsTable
        caption={t(answer.dry_run ? 'sites.sitesToCreate' : 'sites.sitesCreated')}
        rows={answer.created}
      />
      <RowsTable
        caption={t(answer.dry_run ? 'sites.sitesToUpdate' : 'sites.sitesUpdated')}
        rows={answer.updated}
      />
    </div>
  );
}
