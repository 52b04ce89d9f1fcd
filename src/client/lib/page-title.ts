import { t } from './i18n';

/**
 * A page's `<title>` (what a tab, a bookmark and a screen reader's page change say): the page's
 * own words, then the dashboard's name, in the page language (issue 34).
 * `pageTitle('Sudan (SDN)')` → "Sudan (SDN) · Global Risk Dashboard".
 */
export function pageTitle(...parts: string[]): string {
  return [...parts, t('shell.brand')].join(' · ');
}
