import { stringify } from 'csv-stringify/browser/esm/sync';
import {
  SPREADSHEET_CSV_OPTIONS,
  spreadsheetCell,
  spreadsheetText,
} from '../../shared/spreadsheet-cell';

/** A column of a data series: the key in each row and the header people read. */
export interface SeriesColumn {
  key: string;
  label: string;
  /** How the table view shows the value; the CSV always has the raw value. */
  kind?: 'time' | 'score' | 'text';
}

export type SeriesRow = Record<string, string | number | null | undefined>;

/**
 * CSV of a series as shown: header first, one line per row, empty cells for missing values.
 * The byte-order mark makes spreadsheet programs read UTF-8 names ("Côte d'Ivoire") correctly.
 */
export function seriesCsv(columns: readonly SeriesColumn[], rows: readonly SeriesRow[]): string {
  // The same formula guard as the BFF's spreadsheet CSVs: names and labels come from the upstream.
  const records = rows.map((row) => columns.map((column) => spreadsheetCell(row[column.key])));
  const header = columns.map((column) => spreadsheetText(column.label));
  return `\ufeff${stringify([header, ...records], SPREADSHEET_CSV_OPTIONS)}`;
}

/** Saves text as a file through a temporary object URL (nothing leaves the browser). */
export function downloadText(filename: string, text: string, type = 'text/csv;charset=utf-8') {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked on the next turn: the download has taken its copy by then.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export { fileStem } from './file-stem';
