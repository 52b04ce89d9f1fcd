import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { seriesCsv } from '../../src/client/lib/csv.js';
import { countriesCsv, countryCsv } from '../../src/server/services/exports/spreadsheet-csv.js';
import { spreadsheetCell } from '../../src/shared/spreadsheet-cell.js';
import { COUNTRY_SPREADSHEET_COLUMNS } from '../helpers/spreadsheet-columns.js';

/*
 * Every CSV the project writes, in the browser or in the BFF, defuses formula cells the same way:
 * text starting with = + - @, a tab or a CR gets a leading apostrophe; numbers stay numbers.
 */
const FORMULAS = [
  '=HYPERLINK("http://evil.example","click")',
  '+1+1',
  '-2+3',
  '@SUM(A1:A2)',
  '\t=1+1',
  '\r=1+1',
];
const PLAIN = ['Mali', "Côte d'Ivoire", 'a=b', '2026-03-01T10:00:00Z', ''];

function cells(csv: string): string[][] {
  return parse(csv, { bom: true, relax_column_count: true }) as string[][];
}

/** The browser's CSV of one text cell under a label, as a spreadsheet program reads it. */
function browserCells(label: string, value: string | number): { header: string; cell: string } {
  const [header, row] = cells(seriesCsv([{ key: 'v', label }], [{ v: value }]));
  return { header: header?.[0] ?? '', cell: row?.[0] ?? '' };
}

/** The BFF's spreadsheet CSV with `value` as the country name and the batch time. */
function serverCells(value: string): { name: string; asOf: string } {
  const [, row] = cells(
    countriesCsv(value, [{ iso: 'AAA', name: value, risk: 50, tier: 'mod' }], []).toString('utf8'),
  );
  const [, one] = cells(countryCsv(value, { iso: 'AAA', name: value }).toString('utf8'));
  expect(one?.[0]).toBe(row?.[1]);
  const at = COUNTRY_SPREADSHEET_COLUMNS.indexOf('Data generated (UTC)');
  return { name: row?.[1] ?? '', asOf: row?.[at] ?? '' };
}

describe('spreadsheet cells', () => {
  it.each(FORMULAS)(
    'defuses %j in the browser (cells and headers) and in the BFF alike',
    (text) => {
      const browser = browserCells(text, text);
      const server = serverCells(text);
      expect(browser.cell).toBe(`'${text}`);
      expect(browser.header).toBe(`'${text}`);
      expect(server.name).toBe(`'${text}`);
      // The batch time comes from the upstream too.
      expect(server.asOf).toBe(`'${text}`);
    },
  );

  it.each(PLAIN)('leaves %j as it is everywhere', (text) => {
    expect(browserCells('Country', text).cell).toBe(text);
    expect(serverCells(text).name).toBe(text);
  });

  it.each(['Mali\r=1+1', 'Mali\n=1+1', 'Mali\r\n@x'])(
    'quotes %j: a line break inside a cell never starts a row of its own',
    (text) => {
      // Spreadsheet programs end a row at a bare CR or LF; only quotes keep it inside the cell.
      const browser = seriesCsv([{ key: 'v', label: 'Country' }], [{ v: text }]);
      const server = countriesCsv('t', [{ iso: 'AAA', name: text, risk: 1, tier: 'mod' }], []);
      for (const csv of [browser, server.toString('utf8')]) {
        expect(csv).toContain(`"${text}"`);
      }
    },
  );

  it('keeps numbers numbers (a negative change is a value, not a formula)', () => {
    expect(browserCells('Change', -3.2).cell).toBe('-3.2');
    expect(spreadsheetCell(-3.2)).toBe(-3.2);
    expect(spreadsheetCell(Number.NaN)).toBe('');
    expect(spreadsheetCell(null)).toBe('');
    expect(spreadsheetCell('-3.2')).toBe("'-3.2");
  });
});
