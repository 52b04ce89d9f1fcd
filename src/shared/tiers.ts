/**
 * Tier labels. The API names only `crit` and `high`; `mod` and `low` are the provider's public
 * methodology bands (see docs/upstream-gaps.md). Any other label is shown as-is in a neutral
 * colour, so nothing here may be used to reject data.
 */
export const KNOWN_TIERS = ['crit', 'high', 'mod', 'low'] as const;
export type KnownTier = (typeof KNOWN_TIERS)[number];

export const TIER_LABELS: Record<KnownTier, string> = {
  crit: 'Critical',
  high: 'High',
  mod: 'Moderate',
  low: 'Low',
};

/** Risk bands of the methodology (inclusive lower bound), highest first. */
export const TIER_BANDS: ReadonlyArray<{ tier: KnownTier; min: number }> = [
  { tier: 'crit', min: 75 },
  { tier: 'high', min: 60 },
  { tier: 'mod', min: 40 },
  { tier: 'low', min: 0 },
];

/**
 * Colour-blind-safe (ColorBrewer RdYlBu, 4 classes). `text` is the foreground with WCAG AA
 * contrast on `fill`. Tier is always written out too; colour is never the only signal.
 */
export const TIER_COLOURS: Record<KnownTier, { fill: string; text: string }> = {
  crit: { fill: '#a50026', text: '#ffffff' },
  high: { fill: '#f46d43', text: '#1a1a1a' },
  mod: { fill: '#fee090', text: '#1a1a1a' },
  low: { fill: '#4575b4', text: '#ffffff' },
};
export const UNKNOWN_TIER_COLOUR = { fill: '#8c8c8c', text: '#1a1a1a' };

export function isKnownTier(label: string): label is KnownTier {
  return (KNOWN_TIERS as readonly string[]).includes(label);
}

/** Sort order: known tiers from most to least severe, then unknown labels alphabetically. */
export function compareTiers(a: string, b: string): number {
  const ia = isKnownTier(a) ? KNOWN_TIERS.indexOf(a) : KNOWN_TIERS.length;
  const ib = isKnownTier(b) ? KNOWN_TIERS.indexOf(b) : KNOWN_TIERS.length;
  return ia !== ib ? ia - ib : a.localeCompare(b);
}

/**
 * Which way a tier moved: `up` is more severe (crit > high > mod > low). Null when it did not
 * change, or when either side is an unknown label: an unknown label has no order, so "up" or
 * "down" would be a guess.
 */
export function tierDirection(
  before: string | null | undefined,
  after: string | null | undefined,
): 'up' | 'down' | null {
  if (!before || !after || before === after || !isKnownTier(before) || !isKnownTier(after)) {
    return null;
  }
  return compareTiers(after, before) < 0 ? 'up' : 'down';
}

export function tierLabel(label: string): string {
  return isKnownTier(label) ? TIER_LABELS[label] : label;
}

export function tierColour(label: string): { fill: string; text: string } {
  return isKnownTier(label) ? TIER_COLOURS[label] : UNKNOWN_TIER_COLOUR;
}

export function tierForRisk(risk: number): KnownTier {
  return (TIER_BANDS.find((band) => risk >= band.min) ?? { tier: 'low' as const }).tier;
}
