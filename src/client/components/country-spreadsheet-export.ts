import {
  COUNTRY_SPREADSHEET_KEYS,
  countrySpreadsheetRow,
  type SpreadsheetCountry,
} from '../../shared/country-spreadsheet';
import { displayName } from '../lib/display-name';
import type { SpreadsheetExport } from './table-export';

/**
 * A country table's CSV in the columns of every country spreadsheet (the BFF's included), of the
 * rows shown (issue 33, point 2), its header in the page's language as the BFF's (issue 34).
 * `rank` is the row's rank in the whole batch, `recorded` its risk change since the batch
 * recorded before (null: not recorded).
 */
export function countrySpreadsheet<Row extends SpreadsheetCountry & { name: string }>(
  asOf: string | undefined,
  rank: (row: Row) => number | null,
  recorded: (row: Row) => number | null,
): SpreadsheetExport<Row> {
  return {
    header: COUNTRY_SPREADSHEET_KEYS,
    cells: (row, batch) =>
      countrySpreadsheetRow(row, {
        rank: rank(row),
        name: displayName(row.iso, row.name),
        recordedDelta: recorded(row),
        asOf: asOf ?? '',
        batchId: batch?.id ?? null,
        method: batch?.method ?? null,
      }),
  };
}
