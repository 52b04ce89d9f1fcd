import { useQuery } from '@tanstack/react-query';
import {
  EMPTY_TIER_SCALE,
  compareTiersOn,
  learnTierScale,
  tierTone,
  type TierScale,
  type TierTone,
} from '../../shared/tier-scale';
import { isKnownTier } from '../../shared/tiers';
import { bffQueries } from './bff-queries';

/** Stable, so react-query keeps the learned scale until the list itself changes. */
const learnFromList = (answer: {
  data: { countries: ReadonlyArray<{ tier?: string | null; risk?: number | null }> };
}) => learnTierScale(answer.data.countries);

/**
 * The order and colours of tier labels this dashboard does not know, learned from the latest
 * batch (`/api/countries`, the list the overview and search read anyway). Every view that
 * colours or orders a tier goes through here, so a learned label has one colour everywhere.
 * `needed` false only reads what is cached: pages whose labels are all known fetch nothing.
 */
export function useTierScale(needed = true): TierScale {
  const { data } = useQuery({ ...bffQueries.countries(), enabled: needed, select: learnFromList });
  return data ?? EMPTY_TIER_SCALE;
}

/** The colours of one label (fetches the list only when the label is not a known tier). */
export function useTierTone(label: string | null | undefined): TierTone {
  return tierTone(label, useTierScale(Boolean(label) && !isKnownTier(label ?? '')));
}

/** A sort comparator for labels, most severe first, learned labels in their place. */
export function useTierOrder(labels: readonly string[]): (a: string, b: string) => number {
  return compareTiersOn(useTierScale(labels.some((label) => !isKnownTier(label))));
}
