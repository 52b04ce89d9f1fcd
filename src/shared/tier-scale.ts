import {
  KNOWN_TIERS,
  TIER_BANDS,
  TIER_COLOURS,
  UNKNOWN_TIER_COLOUR,
  isKnownTier,
  type KnownTier,
} from './tiers.js';

/**
 * Tiers an upstream names in its own words ("elevated", "guarded", "minimal") are ordered by the
 * scores of the countries that carry them: the median risk of each label. That order places
 * them on the known scale (by the methodology's band floors) and gives each its own colour from
 * a sequential ramp, darkest for the most severe. A label no country with a score carries keeps
 * the neutral grey: its order cannot be learned.
 */

/**
 * The colours of learned labels follow the order of the tiers (issue 33, point 10): a learned
 * label takes the ColorBrewer RdYlBu (11 classes) step that lies between the two known tiers it
 * falls between, so "elevated" between Critical and High is a red between theirs, never a hue that
 * reads as more severe than its place. Slot 0 is above Critical, slot 4 below Low. None of them is
 * a known tier's colour, so a learned label never passes for a known one; labels in one slot share
 * its colour (their words tell them apart). `text` has WCAG AA contrast on `fill`.
 */
export const LEARNED_TIER_RAMP: ReadonlyArray<{ fill: string; text: string }> = [
  { fill: '#67001f', text: '#ffffff' },
  { fill: '#d73027', text: '#ffffff' },
  { fill: '#fdae61', text: '#1a1a1a' },
  { fill: '#abd9e9', text: '#1a1a1a' },
  { fill: '#313695', text: '#ffffff' },
];

/**
 * Every tier colour, most severe first, as one declared order (RdYlBu from its red end, with the
 * darker red above it): the known tiers' fills and the learned slots' fills interleaved. A test
 * checks that tiers sorted by severity never step backwards along it.
 */
export const TIER_COLOUR_ORDER: readonly string[] = [
  '#67001f',
  TIER_COLOURS.crit.fill,
  '#d73027',
  TIER_COLOURS.high.fill,
  '#fdae61',
  TIER_COLOURS.mod.fill,
  '#abd9e9',
  TIER_COLOURS.low.fill,
  '#313695',
];

export interface TierScale {
  /** Labels outside the known four whose order was learned, most severe first. */
  readonly learned: readonly string[];
  /** Each learned label's median risk. */
  readonly medians: ReadonlyMap<string, number>;
}

export const EMPTY_TIER_SCALE: TierScale = { learned: [], medians: new Map() };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** Learns the order of the unknown labels from rows of one batch (tier and risk per country). */
export function learnTierScale(
  rows: ReadonlyArray<{ tier?: string | null; risk?: number | null }>,
): TierScale {
  const risks = new Map<string, number[]>();
  for (const { tier, risk } of rows) {
    if (!tier || isKnownTier(tier) || typeof risk !== 'number' || !Number.isFinite(risk)) continue;
    risks.set(tier, [...(risks.get(tier) ?? []), risk]);
  }
  if (risks.size === 0) return EMPTY_TIER_SCALE;
  const medians = new Map([...risks].map(([tier, values]) => [tier, median(values)]));
  const learned = [...medians.keys()].sort(
    (a, b) => (medians.get(b) ?? 0) - (medians.get(a) ?? 0) || a.localeCompare(b),
  );
  return { learned, medians };
}

/** How a label is coloured: a known tier, a learned rank on the ramp, or neutral. */
export interface TierTone {
  /** CSS class carrying the colours: `tier-crit`, `tier-learned-2`, `tier-other`. */
  className: string;
  fill: string;
  text: string;
}

/**
 * The slot of a learned label: how many known tiers are more severe than it on the scale
 * (compareTiersOn: a median equal to a band floor comes after that tier).
 */
export function learnedSlot(label: string, scale: TierScale): number | undefined {
  if (!scale.medians.has(label)) return undefined;
  const compare = compareTiersOn(scale);
  return KNOWN_TIERS.filter((tier) => compare(tier, label) < 0).length;
}

export function tierTone(label: string | null | undefined, scale: TierScale): TierTone {
  if (label && isKnownTier(label)) {
    return { className: `tier-${label}`, ...TIER_COLOURS[label] };
  }
  const step = label ? learnedSlot(label, scale) : undefined;
  const colour = step === undefined ? undefined : LEARNED_TIER_RAMP[step];
  if (step === undefined || !colour) return { className: 'tier-other', ...UNKNOWN_TIER_COLOUR };
  return { className: `tier-learned-${step}`, ...colour };
}

/** Where a tier sits on the severity scale: a known tier at its band floor, a learned label at its median. */
function severity(label: string, scale: TierScale): number | null {
  if (isKnownTier(label)) {
    return TIER_BANDS.find((band) => band.tier === label)?.min ?? null;
  }
  return scale.medians.get(label) ?? null;
}

/**
 * Most severe first: known and learned labels by their place on the scale (a learned label with
 * the same value as a band floor comes after that tier), then labels with no learned order,
 * alphabetically.
 */
export function compareTiersOn(scale: TierScale): (a: string, b: string) => number {
  return (a, b) => {
    const sa = severity(a, scale);
    const sb = severity(b, scale);
    if (sa === null || sb === null) {
      if (sa !== sb) return sa === null ? 1 : -1;
      return a.localeCompare(b);
    }
    if (sa !== sb) return sb - sa;
    const ka = isKnownTier(a);
    if (ka !== isKnownTier(b)) return ka ? -1 : 1;
    return ka
      ? KNOWN_TIERS.indexOf(a as KnownTier) - KNOWN_TIERS.indexOf(b as KnownTier)
      : a.localeCompare(b);
  };
}
