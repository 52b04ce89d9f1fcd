import { ar } from './ar.js';
import { en, type Catalogue } from './en.js';
import { es } from './es.js';
import { fr } from './fr.js';
import type { Language } from './languages.js';

export * from './languages.js';
export type { Catalogue } from './en.js';

/**
 * Every language's messages, for i18next's `resources` (one namespace: `translation`). What the
 * BFF sends and exports has its own catalogues (`./outputs/index.js`), imported from there: not
 * re-exported here, or the SPA, which imports this file, would carry them in its first script.
 */
export const CATALOGUES: Readonly<Record<Language, Catalogue>> = { en, fr, es, ar };
