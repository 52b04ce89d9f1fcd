import { isIso3, normaliseIso3 } from '../../../../shared/iso';
import { t } from '../../../lib/i18n';

export const MIN_COMPARE = 2;
export const MAX_COMPARE = 6;

export interface CompareSelection {
  /** Valid, upper-cased, de-duplicated codes in the order given. */
  isos: string[];
  /** Plain sentences about what in the URL could not be used, in the page language. */
  problems: string[];
}

/**
 * Reads `?iso=MLI,NER,BFA`: the URL is the whole state of the compare page. Bad items are named
 * and left out rather than failing the page; too few or too many countries are a problem too.
 */
export function parseCompareParam(raw: string | null): CompareSelection {
  const items = (raw ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  const isos: string[] = [];
  const problems: string[] = [];
  for (const item of new Set(items)) {
    if (!isIso3(item)) {
      const shown = item.length > 20 ? `${item.slice(0, 20)}…` : item;
      problems.push(t('compare.notACode', { code: shown }));
      continue;
    }
    const iso = normaliseIso3(item);
    if (!isos.includes(iso)) isos.push(iso);
  }
  if (isos.length > MAX_COMPARE) {
    problems.push(t('compare.atMost', { max: MAX_COMPARE }));
    isos.length = MAX_COMPARE;
  }
  if (isos.length < MIN_COMPARE) {
    problems.push(t('compare.needs', { min: MIN_COMPARE, max: MAX_COMPARE }));
  }
  return { isos, problems };
}

export function compareHref(isos: readonly string[]): string {
  return `/compare?iso=${isos.map(encodeURIComponent).join(',')}`;
}
