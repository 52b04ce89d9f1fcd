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

/**
 * Spreadsheet-ready CSV built by the BFF from its own parsed data (never from the upstream's
 * headers): a UTF-8 byte-order mark (so Excel reads "Türkiye", not "TÃ¼rkiye"), the header row
 * first, labels instead of codes, CRLF line ends (RFC 4180).
 */

/** "civil_unrest" → "Civil unrest". */
export function humanLabel(code: string | null | undefined): string {
  if (!code) return '';
  const words = code.replace(/[_-]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : '';
}

/** Text cells: the formula guard every CSV of the project shares (shared/spreadsheet-cell.ts). */
export const safeText = spreadsheetText;
export { batchStamp };

/** Numbers as numbers; a missing or non-finite one is an empty cell. */
function num(value: number | null | undefined): string | number {
  return spreadsheetCell(value);
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

const COUNTRY_COLUMNS = [
  'Rank',
  'Country',
  'ISO code',
  'Risk (0–100)',
  'Tier',
  'Static score',
  'Active score',
  'Change in active score since the previous batch',
  'Change in headline score since the previous batch',
  'Confidence (0–100)',
  'Profile',
  'Threat vectors',
  'Sources',
  'Data generated (UTC)',
  'Batch id',
  'Methodology version',
] as const;

/**
 * Every country of the batch matching `tiers` (all when empty), highest risk first, with its
 * rank in the whole batch (what the dashboard's "#" shows).
 */
export function countriesCsv(
  asOf: string,
  countries: readonly CountrySummary[],
  tiers: readonly string[],
  /** The batch's citable id (GET /api/batches/:id); empty cells while it has none. */
  batchId: string | null = null,
  /** The provider's method that scored the batch (issue 31), beside its id. */
  method: string | null = null,
): Buffer {
  const ranked = [...countries].sort((a, b) => (b.risk ?? -Infinity) - (a.risk ?? -Infinity));
  const rows = ranked.flatMap((c, index) => {
    if (tiers.length > 0 && !tiers.includes(c.tier ?? '')) return [];
    return [
      [
        typeof c.risk === 'number' ? index + 1 : '',
        safeText(displayName(c.iso, c.name)),
        safeText(c.iso.toUpperCase()),
        num(c.risk),
        safeText(c.tier ? tierLabel(c.tier) : ''),
        num(c.static),
        num(c.active),
        num(c.delta_active),
        num(c.delta_headline),
        num(c.confidence),
        safeText(humanLabel(c.profile)),
        safeText((c.threat_vectors ?? []).map(humanLabel).join('; ')),
        num(c.source_count),
        spreadsheetTime(asOf),
        safeText(batchId ?? ''),
        safeText(method ?? ''),
      ],
    ];
  });
  return csv(COUNTRY_COLUMNS, rows);
}

const CATEGORY_COLUMNS = [
  'Country',
  'ISO code',
  'Data generated (UTC)',
  'Risk (0–100)',
  'Tier',
  'Static score',
  'Active score',
  'Category',
  'Category score',
  'Category static part',
  'Category active part',
  'Category weight',
  'Batch id',
  'Methodology version',
  'Our notes',
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
    CATEGORY_COLUMNS,
    rows.length > 0
      ? rows
      : [[...own, '', '', '', '', '', safeText(batchId ?? ''), safeText(method ?? ''), notesCell]],
  );
}
