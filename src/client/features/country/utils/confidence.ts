import { isKnownTier } from '../../../../shared/tiers';
import { formatInteger } from '../../../lib/format';
import { t } from '../../../lib/i18n';

/** The methodology's high band starts at 60; confidence runs 0–100. */
const HIGH_RISK_MIN = 60;
const LOW_CONFIDENCE_BELOW = 50;

/**
 * A plain warning when a high score rests on thin evidence: the case where an analyst most needs
 * to read the sources before acting. Null when there is nothing to say.
 */
export function confidenceNote(country: {
  risk?: number | null;
  tier?: string | null;
  confidence?: number | null;
}): string | null {
  const { risk, tier, confidence } = country;
  if (typeof confidence !== 'number') return null;
  const high =
    (typeof risk === 'number' && risk >= HIGH_RISK_MIN) ||
    (tier !== null &&
      tier !== undefined &&
      isKnownTier(tier) &&
      (tier === 'crit' || tier === 'high'));
  if (!high || confidence >= LOW_CONFIDENCE_BELOW) return null;
  return t('countryPage.lowConfidence', { confidence: formatInteger(Math.round(confidence)) });
}
