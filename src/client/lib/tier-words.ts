import { isKnownTier, tierLabel } from '../../shared/tiers';
import { t } from './i18n';

/**
 * A tier's word in the interface's language ("Critique", "مرتفع"); a label the dashboard does
 * not know is shown exactly as the API sent it, as `tierLabel` does. Files (CSV) keep English.
 */
export function tierWord(label: string): string {
  return isKnownTier(label) ? t(`tiers.${label}`) : tierLabel(label);
}
