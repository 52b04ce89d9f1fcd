import { headlineChange, HEADLINE_CHANGE_WORDS } from '../../shared/headline-change';
import { formatSigned } from './format';

/** The same change as plain words for a tooltip or a line of text. */
export function headlineChangeText(
  provider: number | null | undefined,
  recorded: number | null | undefined,
): string | null {
  const change = headlineChange(provider, recorded);
  if (change.value === null) return null;
  return change.source === 'recorded'
    ? `Change ${formatSigned(change.value)} ${HEADLINE_CHANGE_WORDS.recorded}`
    : `Change ${formatSigned(change.value)} (${HEADLINE_CHANGE_WORDS.provider})`;
}
