import { OPEN_ACCESS_NAME } from '../../shared/open-access';
import { formatLanguage } from './format';
import { t } from './i18n';

/**
 * Who wrote a note or set an override, as the page says it: the stored name, or, on a dashboard
 * with no sign-in configured (everyone acts under one stored English name), words of the page's
 * language for that; `atStart` when they begin a line ("Someone without sign-in, 12 Nov…").
 */
export function personName(stored: string, atStart = false): string {
  if (stored !== OPEN_ACCESS_NAME) return stored;
  const words = t('format.unsignedPerson');
  return atStart ? words.charAt(0).toLocaleUpperCase(formatLanguage()) + words.slice(1) : words;
}
