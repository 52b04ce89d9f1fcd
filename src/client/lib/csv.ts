import { stringify } from 'csv-stringify/browser/esm/sync';
import {
  SPREADSHEET_CSV_OPTIONS,
  spreadsheetCell,
  spreadsheetText,
  spreadsheetTime,
} from '../../shared/spreadsheet-cell';
import { tierLabel } from '../../shared/tiers';

/** A column of a data series: the key in each row and the header people read. */
export interface SeriesColumn {
  key: string;
  label: string;
  /** How the table view shows the value; in the CSV a time is a spreadsheet date-time. */
  kind?: 'time' | 'score' | 'text' | 'tier';
}

export type SeriesRow = Record<string, string | number | null | undefined>;

/**
 * CSV of a series as shown: header first, one line per row, empty cells for missing values.
 * The byte-order mark makes spreadsheet programs read UTF-8 names ("Côte d'Ivoire") correctly.
 */
export function seriesCsv(columns: readonly SeriesColumn[], rows: readonly SeriesRow[]): string {
  // The same formula guard as the BFF's spreadsheet CSVs: names and labels come from the upstream.
  // Times as spreadsheets read them (a date-time cell, not text); the header says UTC.
  const records = rows.map((row) =>
    columns.map((column) => {
      const value = row[column.key];
      if (typeof value !== 'string') return spreadsheetCell(value);
      if (column.kind === 'time') return spreadsheetTime(value);
      // The tier words of the screens ("Critical"), not the data's codes ("crit").
      if (column.kind === 'tier') return spreadsheetText(tierLabel(value));
      return spreadsheetCell(value);
    }),
  );
  const header = columns.map((column) => spreadsheetText(column.label));
  return `\ufeff${stringify([header, ...records], SPREADSHEET_CSV_OPTIONS)}`;
}

/**
 * CSV of rows whose cells are already spreadsheet cells (shared/country-spreadsheet.ts builds
 * them for the BFF's file and this one alike): the byte-order mark, the header, CRLF.
 */
export function cellsCsv(
  header: readonly string[],
  rows: ReadonlyArray<ReadonlyArray<string | number>>,
): string {
  return `\ufeff${stringify([header.map(spreadsheetText), ...rows], SPREADSHEET_CSV_OPTIONS)}`;
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
