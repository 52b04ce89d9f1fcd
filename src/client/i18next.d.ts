import 'i18next';
import type { en } from '../shared/i18n/en';

// Typed keys: `t('shell.brand')` checks against the English catalogue, so a key that does not
// exist fails the typecheck instead of showing "shell.brnad" to readers.
declare module 'i18next' {
  interface CustomTypeOptions {
    resources: { translation: typeof en };
    returnNull: false;
  }
}
