import type { outputsEn, OutputsCatalogue } from '../../shared/i18n/outputs/en';
import { isLanguage } from '../../shared/i18n/languages';
import { formatLanguage } from './format';

/** A spreadsheet header's words, keyed as the BFF's (the `outputs` catalogue's `sheet`). */
export type SheetWords = OutputsCatalogue['sheet'];
export type SheetKey = keyof typeof outputsEn.sheet;

/**
 * The page language's spreadsheet header words (issue 34): the same words the BFF's
 * spreadsheets write with `?lang=`, so a table's download reads like the file the BFF makes.
 * Fetched with the CSV code on the first download (a chunk of its own, never the first
 * script's); the pseudo-locale's files are English, like any language we do not speak.
 */
export async function pageSheetWords(): Promise<SheetWords> {
  const { OUTPUTS } = await import('../../shared/i18n/outputs/index');
  const language = formatLanguage();
  return OUTPUTS[isLanguage(language) ? language : 'en'].sheet;
}
