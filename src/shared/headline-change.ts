/**
 * One change of the risk score per place it is shown (issue 33, point 1). Two figures exist: the
 * upstream's `delta_headline`, whose period the API does not state, and the difference between
 * the two batches this dashboard recorded. Where both batches are recorded, ours is the headline
 * change; the provider's is shown only under its own name, and never as a direction (no "down"
 * in green) when it points another way than ours.
 */

/** Changes are compared as they are shown: to two decimals. */
function shownSign(value: number): -1 | 0 | 1 {
  const rounded = Math.round(value * 100);
  return rounded > 0 ? 1 : rounded < 0 ? -1 : 0;
}

export interface HeadlineChange {
  /** The change to show as the headline: ours when recorded, else the provider's. */
  value: number | null;
  /** Where `value` comes from. */
  source: 'recorded' | 'provider' | null;
  /** The provider's own figure (`delta_headline`), whatever `value` is. */
  provider: number | null;
  /** Both known and they point different ways (one up, the other down or flat, as shown). */
  disagrees: boolean;
}

const finite = (value: number | null | undefined): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

/**
 * The headline change of one country: `recorded` is its risk in the batch shown minus its risk
 * in the batch recorded before it (undefined or null when this dashboard has not recorded both).
 */
export function headlineChange(
  providerDelta: number | null | undefined,
  recorded: number | null | undefined,
): HeadlineChange {
  const provider = finite(providerDelta);
  const ours = finite(recorded);
  if (ours !== null) {
    const disagrees = provider !== null && shownSign(provider) !== shownSign(ours);
    return { value: ours, source: 'recorded', provider, disagrees };
  }
  return {
    value: provider,
    source: provider === null ? null : 'provider',
    provider,
    disagrees: false,
  };
}

/** How each source is named wherever a change is shown (screens, tooltips, spreadsheets). */
export const HEADLINE_CHANGE_WORDS = {
  recorded: 'since the previous batch recorded here',
  provider: "provider's own figure, period not stated",
} as const;
