import { LEARNED_TIER_RAMP } from '../../shared/tier-scale';
import { KNOWN_TIERS, TIER_COLOURS, UNKNOWN_TIER_COLOUR } from '../../shared/tiers';

/**
 * Tier colours have one source, src/shared/tiers.ts. They reach CSS as custom properties set
 * through the CSSOM (allowed under a CSP without 'unsafe-inline'), so badges, map markers and
 * legend swatches all follow the shared palette.
 */
export function applyTierColours(root: HTMLElement): void {
  for (const tier of KNOWN_TIERS) {
    root.style.setProperty(`--tier-${tier}-fill`, TIER_COLOURS[tier].fill);
    root.style.setProperty(`--tier-${tier}-text`, TIER_COLOURS[tier].text);
  }
  root.style.setProperty('--tier-other-fill', UNKNOWN_TIER_COLOUR.fill);
  root.style.setProperty('--tier-other-text', UNKNOWN_TIER_COLOUR.text);
  LEARNED_TIER_RAMP.forEach((colour, step) => {
    root.style.setProperty(`--tier-learned-${step}-fill`, colour.fill);
    root.style.setProperty(`--tier-learned-${step}-text`, colour.text);
  });
}
