import { isKnownTier, tierColour, tierLabel } from '../../shared/tiers';
import { NA } from '../lib/format';

/**
 * A tier as text on its colour. Known tiers read "Critical" etc.; any other label from the API is
 * shown exactly as sent, on neutral grey. Colours come from CSS classes (no inline styles, so a
 * strict CSP holds), one per known tier plus one neutral.
 */
export function TierBadge({ tier }: { tier: string | null | undefined }) {
  if (!tier) return <span className="tier-badge tier-none">{NA}</span>;
  const known = isKnownTier(tier);
  return (
    <span
      className={`tier-badge ${known ? `tier-${tier}` : 'tier-other'}`}
      title={known ? `Tier label: ${tier}` : 'A tier label this dashboard does not know'}
    >
      {tierLabel(tier)}
    </span>
  );
}

/** The CSS class colouring a tier (known tiers) or the neutral one. */
export function tierClass(tier: string | null | undefined): string {
  return tier && isKnownTier(tier) ? `tier-${tier}` : 'tier-other';
}

export { tierColour };
