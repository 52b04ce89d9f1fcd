import type { ReactNode } from 'react';
import { batchesAt, type CitedBatch } from '../lib/batch-ids';
import { downloadText, seriesCsv, type SeriesColumn, type SeriesRow } from '../lib/csv';
import { batchStamp } from '../../shared/spreadsheet-cell';
import { formatScore, formatUtcDateTime, na } from '../lib/format';
import { TableHead, TableRegion } from './data-table';
import { useChartView, ViewToggle } from './view-toggle';
import { tierWord } from '../lib/tier-words';
import { t } from '../lib/i18n';
import { pageSheetWords } from '../lib/sheet-words';

/**
 * The chart's CSV as a citable file (issue 22): each row (one recorded batch) gains its batch's
 * id and the provider's method that scored it (issue 31: a series may cross a method change),
 * and the file name the time of the newest batch drawn. Should the ids not be had (no
 * answer), the file still comes, its rows carrying their batch times. Those two columns are
 * headed in the page's language with the BFF's spreadsheet words (issue 34).
 */
async function downloadSeries(
  filename: string,
  columns: readonly SeriesColumn[],
  rows: readonly SeriesRow[],
) {
  const time = columns.find((column) => column.kind === 'time');
  const times = time ? rows.map((row) => String(row[time.key] ?? '')) : [];
  const [batches, words] = await Promise.all([
    batchesAt(times).catch(() => new Map<number, CitedBatch>()),
    pageSheetWords(),
  ]);
  const cite: SeriesColumn[] = [
    { key: 'batch_id', label: words.batchId, kind: 'text' },
    { key: 'method', label: words.method, kind: 'text' },
  ];
  const cited = rows.map((row, i) => {
    const batch = batches.get(Date.parse(times[i] ?? ''));
    return { ...row, batch_id: batch?.id, method: batch?.method ?? undefined };
  });
  const newest = times.reduce<string | null>(
    (max, t) => (max === null || Date.parse(t) > Date.parse(max) ? t : max),
    null,
  );
  const stamp = newest === null ? null : batchStamp(newest);
  downloadText(
    `${filename}${stamp ? `-${stamp}` : ''}.csv`,
    seriesCsv(time ? [...columns, ...cite] : columns, cited),
  );
}

/**
 * A chart with its table view and CSV download. The view is in the URL (`?<param>=table`), like
 * every view; the table and the CSV carry exactly the series the chart draws, so the drawing
 * itself can stay hidden from assistive technology.
 */
export function ChartFrame({
  label,
  viewParam,
  columns,
  rows,
  filename,
  chart,
}: {
  /** Names the series for the controls and the table caption ("Global index"). */
  label: string;
  /** The URL parameter holding this chart's view. */
  viewParam: string;
  columns: readonly SeriesColumn[];
  rows: readonly SeriesRow[];
  /** Without ".csv". */
  filename: string;
  chart: ReactNode;
}) {
  const [view, setView] = useChartView(viewParam);
  return (
    <div className="chart-frame">
      <div className="chart-tools">
        <ViewToggle label={t('chart.showAs', { label })} view={view} onChange={setView} />
        <button
          type="button"
          className="link-button"
          onClick={() => void downloadSeries(filename, columns, rows)}
        >
          {t('chart.downloadCsv')}
          <span className="visually-hidden">{t('chart.downloadCsvOf', { label })}</span>
        </button>
      </div>
      {view === 'table' ? (
        <SeriesTable label={label} columns={columns} rows={rows} />
      ) : (
        <>
          {chart}
          <p className="visually-hidden">{t('chart.drawnForSighted')}</p>
        </>
      )}
    </div>
  );
}

function cellText(column: SeriesColumn, value: SeriesRow[string]): string {
  if (value === null || value === undefined || value === '') return na();
  if (column.kind === 'time') return formatUtcDateTime(String(value));
  if (column.kind === 'score' && typeof value === 'number') return formatScore(value);
  if (column.kind === 'tier') return tierWord(String(value));
  return String(value);
}

function SeriesTable({
  label,
  columns,
  rows,
}: {
  label: string;
  columns: readonly SeriesColumn[];
  rows: readonly SeriesRow[];
}) {
  return (
    <TableRegion label={t('chart.tableOf', { label })} className="series-table">
      <table className="data-table">
        <caption className="visually-hidden">{label}</caption>
        <TableHead
          columns={columns.map((column, i) => ({
            label: column.label,
            className: i === 0 ? undefined : 'num',
          }))}
        />
        <tbody>
          {rows.map((row, r) => (
            <tr key={r}>
              {columns.map((column, i) =>
                i === 0 ? (
                  <th key={column.key} scope="row">
                    {cellText(column, row[column.key])}
                  </th>
                ) : (
                  <td
                    key={column.key}
                    className={column.kind === 'text' || column.kind === 'tier' ? undefined : 'num'}
                  >
                    {cellText(column, row[column.key])}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}
