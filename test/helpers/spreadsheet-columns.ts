import { COUNTRY_SPREADSHEET_KEYS } from '../../src/shared/country-spreadsheet.js';
import { outputsEn } from '../../src/shared/i18n/outputs/en.js';

/** A country spreadsheet's header in English: the feeds' stable, documented columns. */
export const COUNTRY_SPREADSHEET_COLUMNS: readonly string[] = COUNTRY_SPREADSHEET_KEYS.map(
  (key) => outputsEn.sheet[key],
);
