import { ar } from './ar.js';
import { en, type Catalogue } from './en.js';
import { es } from './es.js';
import { fr } from './fr.js';
import type { Language } from './languages.js';

export * from './languages.js';
export type { Catalogue } from './en.js';

/** Every language's messages, for i18next's `resources` (one namespace: `translation`). */
export const CATALOGUES: Readonly<Record<Language, Catalogue>> = { en, fr, es, ar };
export * from './outputs/index.js';
