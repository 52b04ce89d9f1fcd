import type { Language } from '../languages.js';
import { outputsAr } from './ar.js';
import { outputsEn, type OutputsCatalogue } from './en.js';
import { outputsEs } from './es.js';
import { outputsFr } from './fr.js';

export type { OutputsCatalogue } from './en.js';

/** The i18next namespace of what the BFF sends and exports (issue 34). */
export const OUTPUTS_NAMESPACE = 'outputs';

/** Every language's messages for what is sent and exported. */
export const OUTPUTS: Readonly<Record<Language, OutputsCatalogue>> = {
  en: outputsEn,
  fr: outputsFr,
  es: outputsEs,
  ar: outputsAr,
};
