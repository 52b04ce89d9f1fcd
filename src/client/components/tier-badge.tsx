import { isKnownTier } from '../../shared/tiers';
import { na } from '../lib/format';
import { useTierTone } from '../lib/tier-scale';
import { t } from '../lib/i18n';
import { tierWord } from '../lib/tier-words';

/**
 * A tier as text on its colour. Known tiers read "Critical" etc.; any other label from the API is
 * shown exactly as sent, on its learned colour (lib/tier-scale) or neutral grey. Colours come
 * from CSS classes (no inline styles, so a strict CSP holds).
 */
export function TierBadge({ tier }: { tier: string | null | undefined }) {
  const tone = useTierTone(tier);
  if (!tier) return <span className="tier-badge tier-none">{na()}</span>;
  const title = isKnownTier(tier)
    ? t('tiers.known', { tier })
    : tone.className === 'tier-other'
      ? t('tiers.unknown')
      : 'A tier label this dashboard does not know; its colour follows the order learned from the scores';
  return (
    <span className={`tier-badge ${tone.className}`} title={title}>
      {tierWord(tier)}
    </span>
  );
}
