/**
 * One CSV cell as a spreadsheet program will read it, for every CSV this project writes (the
 * BFF's spreadsheet downloads and the SPA's chart and table CSVs). Text is untrusted (upstream
 * names, labels, times): a cell starting with = + - @, a tab or a CR would run as a formula, so
 * it is prefixed with an apostrophe (OWASP's advice for CSV injection). Numbers stay numbers
 * (`-3.2` is a value, not a formula); a number that is not finite is an empty cell.
 */
export function spreadsheetText(text: string | null | undefined): string {
  if (!text) return '';
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/**
 * Whether text people send (a site's name, ref, tag, an import cell) would run as a formula once
 * stored: judged as it is stored, trimmed, so a leading space or tab hides nothing. A cell starting
 * with = + or @ is a formula; one starting with - is one unless the whole text is a number
 * (`-3.2` is a longitude, `-2+3+cmd|' /C calc'!A0` is not). The one rule of every way sites come
 * in (CSV and JSON imports, POST and PUT), which spreadsheetText's escaping backs on the way out.
 */
export function startsFormula(text: string): boolean {
  const value = text.trim();
  if (/^[=+@]/.test(value)) return true;
  return value.startsWith('-') && !/^-(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(value);
}

/** Why `text` is refused as a formula, quoting its start (without the field's name), or null. */
export function formulaWords(text: string): string | null {
  if (!startsFormula(text)) return null;
  return `${JSON.stringify(text.trim().slice(0, 20))} looks like a spreadsheet formula; sites take plain values only`;
}

/** `formulaWords` naming the field (`name: "=HYPERLINK(…" looks like …`), or null. */
export function formulaProblem(field: string, text: string): string | null {
  const words = formulaWords(text);
  return words === null ? null : `${field}: ${words}`;
}

export function spreadsheetCell(value: string | number | null | undefined): string | number {
  if (typeof value === 'number') return Number.isFinite(value) ? value : '';
  return spreadsheetText(value);
}

/**
 * A time as spreadsheets read it: `2026-11-22 10:00:00`, which Excel, LibreOffice and Google
 * Sheets all take as a date and time (they keep ISO 8601's `2026-11-22T10:00:00.000Z` as
 * text). Always UTC, which the column's header says. Text that is not a time stays text.
 */
export function spreadsheetTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const time = Date.parse(iso);
  if (!Number.isFinite(time)) return spreadsheetText(iso);
  return new Date(time).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * csv-stringify's options for every such CSV: CRLF records (RFC 4180), and any cell holding a CR
 * or LF quoted (csv-stringify leaves a lone CR bare, which ends the row in a spreadsheet and
 * starts the next one with whatever follows: `'\r=1+1` would become a formula cell).
 */
/**
 * `2026-11-22T10:00:00Z` → `2026-11-22-1000` (UTC): a batch's time in file names (the BFF's
 * spreadsheets and the SPA's chart downloads); null if unreadable.
 */
export function batchStamp(asOf: string): string | null {
  const time = Date.parse(asOf);
  if (Number.isNaN(time)) return null;
  const iso = new Date(time).toISOString();
  return `${iso.slice(0, 10)}-${iso.slice(11, 13)}${iso.slice(14, 16)}`;
}

export const SPREADSHEET_CSV_OPTIONS = {
  record_delimiter: 'windows',
  quoted_match: /[\r\n]/,
} as const;
