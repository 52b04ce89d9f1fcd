import { headlineChange } from './headline-change.js';
import type { outputsEn } from './i18n/outputs/en.js';
import type { Outputs } from './i18n/outputs/translate.js';
import { spreadsheetCell, spreadsheetText, spreadsheetTime } from './spreadsheet-cell.js';
import { tierLabel } from './tiers.js';

/**
 * The one set of columns of every country spreadsheet (issue 33, point 2): the BFF's
 * `/api/spreadsheet/countries` and the tables' "rows shown" download write the same header, in
 * the same order, with the same cells, so two files of one batch line up column for column. The
 * header's words are the reader's language (issue 34, the `outputs` catalogue's `sheet`); the
 * cells stay machine-readable.
 */
export const COUNTRY_SPREADSHEET_KEYS = [
  'rank',
  'country',
  'iso',
  'risk',
  'tier',
  'static',
  'active',
  'recordedChange',
  'providerHeadlineChange',
  'providerActiveChange',
  'confidence',
  'profile',
  'threatVectors',
  'sources',
  'generated',
  'batchId',
  'method',
] as const satisfies ReadonlyArray<keyof typeof outputsEn.sheet>;

/**
 * The header row in `o`'s language. (The English words stay out of this module: the SPA's
 * overview imports it for its table's download, and the outputs catalogue is not its to load.)
 */
export function countrySpreadsheetColumns(o: Outputs): string[] {
  return COUNTRY_SPREADSHEET_KEYS.map((key) => o.t(`sheet.${key}`));
}

/** The fields of a country row the spreadsheet reads (a hotspot or a batch's country). */
export interface SpreadsheetCountry {
  iso: string;
  risk?: number | null;
  tier?: string | null;
  static?: number | null;
  active?: number | null;
  delta_active?: number | null;
  delta_headline?: number | null;
  confidence?: number | null;
  profile?: string | null;
  threat_vectors?: readonly string[] | null;
  source_count?: number | null;
}

/** "civil_unrest" → "Civil unrest". */
export function humanLabel(code: string | null | undefined): string {
  if (!code) return '';
  const words = code.replace(/[_-]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : '';
}

export interface SpreadsheetRowContext {
  /** Rank in the whole batch, or null when the row has none. */
  rank: number | null;
  /** The name as the dashboard shows it. */
  name: string;
  /** Risk now minus risk in the batch recorded before it; null when not both are recorded. */
  recordedDelta: number | null;
  asOf: string;
  batchId: string | null;
  /** The provider's method that scored the batch (issue 31); null when not known. */
  method?: string | null;
}

/** One row's cells, untrusted text guarded against formulas (shared/spreadsheet-cell.ts). */
export function countrySpreadsheetRow(
  c: SpreadsheetCountry,
  context: SpreadsheetRowContext,
): Array<string | number> {
  const change = headlineChange(c.delta_headline, context.recordedDelta);
  return [
    spreadsheetCell(context.rank),
    spreadsheetText(context.name),
    spreadsheetText(c.iso.toUpperCase()),
    spreadsheetCell(c.risk),
    spreadsheetText(c.tier ? tierLabel(c.tier) : ''),
    spreadsheetCell(c.static),
    spreadsheetCell(c.active),
    spreadsheetCell(change.source === 'recorded' ? change.value : null),
    spreadsheetCell(change.provider),
    spreadsheetCell(c.delta_active),
    spreadsheetCell(c.confidence),
    spreadsheetText(humanLabel(c.profile)),
    spreadsheetText((c.threat_vectors ?? []).map(humanLabel).join('; ')),
    spreadsheetCell(c.source_count),
    spreadsheetTime(context.asOf),
    spreadsheetText(context.batchId ?? ''),
    spreadsheetText(context.method ?? ''),
  ];
}
