import type { MethodMark } from '../../shared/method-api';
import { methodChangeWords } from '../lib/method-caveat';
import { t } from '../lib/i18n';

/**
 * A span that crosses a provider's method change, said plainly where its figures are shown
 * (issue 31): "The provider's method changed from A to B on <batch time>: scores are not
 * comparable across it." and what the view did about it (`then`). Nothing for no change.
 */
export function MethodCaveat({ changes, then }: { changes: readonly MethodMark[]; then?: string }) {
  if (changes.length === 0) return null;
  const words = changes.map((change) => methodChangeWords(change)).join(t('problems.reasonsJoin'));
  return (
    <p className="method-change-note" role="note">
      <strong>{t('problems.notComparableLead')}</strong>
      {t('problems.notComparable', { count: changes.length, changes: words })}
      {then ? ` ${then}` : ''}
    </p>
  );
}
