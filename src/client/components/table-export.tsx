import { useLocation } from 'react-router';
import { batchAt, batchIdAt, type CitedBatch } from '../lib/batch-ids';
import { t } from '../lib/i18n';
import { pageSheetWords, type SheetKey } from '../lib/sheet-words';

/** A column of a table's download: its header and the raw value of each row. */
export interface ExportColumn<Row> {
  /** The JSON field. */
  key: string;
  /** The CSV header, as the table says it. */
  label: string;
  value: (row: Row) => string | number | null | undefined;
}

/**
 * A spreadsheet of fixed columns in place of the table's own (issue 33, point 2: a country table
 * writes the columns of every country spreadsheet); `cells` gets the batch's id. The header is
 * named by the keys of the BFF's spreadsheet words, written in the page's language (issue 34).
 */
export interface SpreadsheetExport<Row> {
  header: readonly SheetKey[];
  cells: (row: Row, batch: CitedBatch | null) => Array<string | number>;
}

/** Every row's batch, as the BFF's spreadsheets end their rows (their header words' keys). */
const BATCH_COLUMNS = [
  { key: 'batch_as_of', sheet: 'generated', kind: 'time' },
  { key: 'batch_id', sheet: 'batchId', kind: 'text' },
] as const;

/**
 * Downloads the rows a table shows (after its search, filters and sort), in the order shown: a
 * spreadsheet CSV (the same byte-order mark and formula guard as every CSV here) or JSON with the
 * batch time and the view's URL. Made in the browser; the CSV code loads on the first click.
 * Both cite the batch the rows come from by its time and id (issue 22; the id is asked for when
 * the file is made, and left empty should the store not have it).
 */
export function TableExport<Row>({
  columns,
  rows,
  filename,
  asOf,
  spreadsheet,
}: {
  columns: readonly ExportColumn<Row>[];
  /** The CSV's columns when they are not the table's (the JSON keeps `columns`). */
  spreadsheet?: SpreadsheetExport<Row>;
  rows: readonly Row[];
  /** The file name without extension ("all-countries-2026-11-10t10-00z"). */
  filename: string;
  /** The batch the rows come from. */
  asOf: string | undefined;
}) {
  const location = useLocation();
  const records = () =>
    rows.map((row) =>
      Object.fromEntries(columns.map((column) => [column.key, column.value(row) ?? null])),
    );
  const csv = async () => {
    const [{ cellsCsv, downloadText, seriesCsv }, batch, words] = await Promise.all([
      import('../lib/csv'),
      batchAt(asOf),
      pageSheetWords(),
    ]);
    const batchId = batch?.id ?? null;
    if (spreadsheet) {
      const cells = rows.map((row) => spreadsheet.cells(row, batch));
      const header = spreadsheet.header.map((key) => words[key]);
      downloadText(`${filename}.csv`, cellsCsv(header, cells));
      return;
    }
    const batchColumns = BATCH_COLUMNS.map(({ sheet, ...column }) => ({
      ...column,
      label: words[sheet],
    }));
    const cited = records().map((record) => ({
      ...record,
      batch_as_of: asOf ?? null,
      batch_id: batchId,
    }));
    downloadText(`${filename}.csv`, seriesCsv([...columns, ...batchColumns], cited));
  };
  const json = async () => {
    const [{ downloadText }, batchId] = await Promise.all([import('../lib/csv'), batchIdAt(asOf)]);
    const body = {
      as_of: asOf ?? null,
      batch_id: batchId,
      view: `${location.pathname}${location.search}`,
      count: rows.length,
      rows: records(),
    };
    downloadText(`${filename}.json`, `${JSON.stringify(body, null, 2)}\n`, 'application/json');
  };
  const what = t('table.rowsShown', { count: rows.length });
  return (
    <div
      className="export-links table-export"
      role="group"
      aria-label={t('table.downloadGroup', { rows: what })}
    >
      <span className="export-label">{t('table.downloadLabel', { rows: what })}</span>
      <button type="button" onClick={() => void csv()}>
        {t('table.spreadsheetCsv')}
      </button>
      <button type="button" onClick={() => void json()}>
        {t('table.json')}
      </button>
    </div>
  );
}
