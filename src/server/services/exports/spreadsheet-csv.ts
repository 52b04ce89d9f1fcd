import { stringify } from 'csv-stringify/sync';
import { displayName } from '../reference/display-names.js';
import type { CountrySummary } from '../../../shared/bff-api.js';
import { CATEGORY_NAMES } from '../../../shared/categories.js';
import {
  batchStamp,
  SPREADSHEET_CSV_OPTIONS,
  spreadsheetCell,
  spreadsheetText,
  spreadsheetTime,
} from '../../../shared/spreadsheet-cell.js';
import { tierLabel } from '../../../shared/tiers.js';
import {
  countrySpreadsheetColumns,
  countrySpreadsheetRow,
  humanLabel,
} from '../../../shared/country-spreadsheet.js';
import type { outputsEn } from '../../../shared/i18n/outputs/en.js';
import { outputsIn, type Outputs } from '../../../shared/i18n/outputs/translate.js';

/**
 * Spreadsheet-ready CSV built by the BFF from its own parsed data (never from the upstream's
 * headers): a UTF-8 byte-order mark (so Excel reads "Türkiye", not "TÃ¼rkiye"), the header row
 * first, labels instead of codes, CRLF line ends (RFC 4180).
 */

export { humanLabel };

/** Text cells: the formula guard every CSV of the project shares (shared/spreadsheet-cell.ts). */
export const safeText = spreadsheetText;
export { batchStamp };

/** Numbers as numbers; a missing or non-finite one is an empty cell. */
function num(value: number | null | undefined): string | number {
  return spreadsheetCell(value);
}

/** A header row in `o`'s language from keys of the `outputs` catalogue's `sheet`. */
export function sheetHeader(
  keys: ReadonlyArray<keyof typeof outputsEn.sheet>,
  o: Outputs,
): string[] {
  return keys.map((key) => o.t(`sheet.${key}`));
}

export function csv(
  columns: readonly string[],
  rows: ReadonlyArray<ReadonlyArray<string | number>>,
): Buffer {
  const text = stringify([columns, ...rows], { ...SPREADSHEET_CSV_OPTIONS, bom: true });
  return Buffer.from(text, 'utf8');
}

/** `global-risk-2026-11-22-1000-crit-high.csv` (tier labels are already [a-z0-9_-]). */
export function countriesFileName(asOf: string, tiers: readonly string[]): string {
  const parts = ['global-risk', batchStamp(asOf) ?? 'latest', ...tiers];
  return `${parts.join('-')}.csv`;
}

export function countryFileName(asOf: string, iso: string): string {
  return `global-risk-${iso}-${batchStamp(asOf) ?? 'latest'}.csv`;
}

/**
 * Every country of the batch matching `tiers` (all when empty), highest risk first, with its
 * rank in the whole batch (what the dashboard's "#" shows), in the columns every country
 * spreadsheet shares (shared/country-spreadsheet.ts).
 */
export function countriesCsv(
  asOf: string,
  countries: readonly CountrySummary[],
  tiers: readonly string[],
  /** The batch's citable id (GET /api/batches/:id); empty cells while it has none. */
  batchId: string | null = null,
  /** Each country's risk change since the batch recorded before this one (none: not recorded). */
  recordedDeltas: ReadonlyMap<string, number> | null = null,
  /** The provider's method that scored the batch (issue 31), beside its id. */
  method: string | null = null,
  /** The header row's language (issue 34); the cells stay machine-readable. */
  o: Outputs = outputsIn('en'),
): Buffer {
  const ranked = [...countries].sort((a, b) => (b.risk ?? -Infinity) - (a.risk ?? -Infinity));
  const rows = ranked.flatMap((c, index) => {
    if (tiers.length > 0 && !tiers.includes(c.tier ?? '')) return [];
    const context = {
      rank: typeof c.risk === 'number' ? index + 1 : null,
      name: displayName(c.iso, c.name),
      recordedDelta: recordedDeltas?.get(c.iso.toUpperCase()) ?? null,
      asOf,
      batchId,
      method,
    };
    return [countrySpreadsheetRow(c, context)];
  });
  return csv(countrySpreadsheetColumns(o), rows);
}

/** The country file's columns, as keys of the `outputs` catalogue's `sheet` (issue 34). */
const CATEGORY_COLUMNS = [
  'country',
  'iso',
  'generated',
  'risk',
  'tier',
  'static',
  'active',
  'category',
  'categoryScore',
  'categoryStatic',
  'categoryActive',
  'categoryWeight',
  'batchId',
  'method',
  'notes',
] as const;

/**
 * One country as tidy rows: one row per risk category (documented ones first, in the API's
 * order), the country's own numbers repeated on each, so a pivot table or filter just works.
 */
export function countryCsv(
  asOf: string,
  country: CountrySummary,
  /** The batch's citable id (GET /api/batches/:id); empty cells while it has none. */
  batchId: string | null = null,
  /** The provider's method that scored the batch (issue 31), beside its id. */
  method: string | null = null,
  /** The team's notes on the country as of the batch, each "text (author, time)" (issue 31). */
  notes: readonly string[] = [],
  /** The header row's language (issue 34); the cells stay machine-readable. */
  o: Outputs = outputsIn('en'),
): Buffer {
  const notesCell = safeText(notes.join(' | '));
  const own = [
    safeText(displayName(country.iso, country.name)),
    safeText(country.iso.toUpperCase()),
    spreadsheetTime(asOf),
    num(country.risk),
    safeText(country.tier ? tierLabel(country.tier) : ''),
    num(country.static),
    num(country.active),
  ];
  const categories = country.categories ?? {};
  const documented: readonly string[] = CATEGORY_NAMES;
  const names = [
    ...CATEGORY_NAMES.filter((name) => name in categories),
    ...Object.keys(categories).filter((name) => !documented.includes(name)),
  ];
  const rows = names.map((name) => {
    const score = categories[name];
    return [
      ...own,
      safeText(humanLabel(name)),
      num(score?.score),
      num(score?.static),
      num(score?.active),
      num(score?.weight),
      safeText(batchId ?? ''),
      safeText(method ?? ''),
      notesCell,
    ];
  });
  return csv(
    sheetHeader(CATEGORY_COLUMNS, o),
    rows.length > 0
      ? rows
      : [[...own, '', '', '', '', '', safeText(batchId ?? ''), safeText(method ?? ''), notesCell]],
  );
}
