import { spreadsheetCell, spreadsheetTime } from '../../../shared/spreadsheet-cell.js';
import { tierLabel } from '../../../shared/tiers.js';
import type { CountryRow } from '../../store/batches.js';
import type { SiteRow } from '../../store/sites.js';
import { displayName } from '../reference/display-names.js';
import { outputsIn, type Outputs } from '../../../shared/i18n/outputs/translate.js';
import { batchStamp, csv, humanLabel, safeText, sheetHeader } from './spreadsheet-csv.js';

/** The columns, as keys of the `outputs` catalogue's `sheet` (the header row's language). */
const SITE_COLUMNS = [
  'siteRef',
  'siteName',
  'siteKind',
  'latitude',
  'longitude',
  'country',
  'iso',
  'placedBy',
  'people',
  'value',
  'currency',
  'tags',
  'tripFrom',
  'tripTo',
  'risk',
  'tier',
  'active',
  'siteActiveChange',
  'generated',
  'batchId',
] as const;

const PLACED_WORDS = { given: 'Given', inside: 'Inside the country', distance: 'By distance' };

/**
 * Our sites with their country's numbers in the newest recorded batch (its time and citable id
 * on every row whose country it has), through the same cell
 * rules as every spreadsheet CSV (formula guard, UTC times, tier words, BOM, CRLF).
 */
export function sitesCsv(
  rows: readonly SiteRow[],
  countries: ReadonlyMap<string, CountryRow> | undefined,
  asOf: string | null,
  batchId: string | null = null,
  /** The header row's language (issue 34); the cells stay machine-readable. */
  o: Outputs = outputsIn('en'),
): Buffer {
  return csv(
    sheetHeader(SITE_COLUMNS, o),
    rows.map((site) => {
      const country = countries?.get(site.iso);
      return [
        safeText(site.ref),
        safeText(site.name),
        safeText(humanLabel(site.kind)),
        spreadsheetCell(site.lat),
        spreadsheetCell(site.lng),
        safeText(displayName(site.iso, country?.name ?? null)),
        safeText(site.iso),
        PLACED_WORDS[site.placedBy],
        spreadsheetCell(site.people),
        spreadsheetCell(site.value),
        safeText(site.currency),
        safeText(site.tags.join('; ')),
        safeText(site.tripFrom),
        safeText(site.tripTo),
        spreadsheetCell(country?.risk),
        safeText(country?.tier ? tierLabel(country.tier) : ''),
        spreadsheetCell(country?.active),
        spreadsheetCell(country?.deltaActive),
        country ? spreadsheetTime(asOf) : '',
        country ? safeText(batchId ?? '') : '',
      ];
    }),
  );
}

export function sitesFileName(asOf: string | null): string {
  return `our-sites-${(asOf && batchStamp(asOf)) ?? 'latest'}.csv`;
}
