import type { Alert } from '../../../shared/alerts-api.js';
import { KNOWN_TIERS } from '../../../shared/tiers.js';

/**
 * "Critical" for quiet hours (issue 21): a rise into the top tier (a tier-change alert whose
 * country is now in the highest known tier and was not before). Everything else waits until
 * quiet hours end; only this reaches someone at night.
 */
export function isCritical(alert: Pick<Alert, 'kind' | 'before' | 'after'>): boolean {
  const top = KNOWN_TIERS[0];
  return (
    alert.kind === 'tier_change' &&
    alert.after.tier === top &&
    alert.before !== null &&
    alert.before.tier !== top
  );
}
