import { compareTiers } from '../../../shared/tiers.js';
import type { SiteRow } from '../../store/sites.js';

/** Our sites in one country, with their people and value summed. */
export interface CountryGroup {
  iso: string;
  sites: SiteRow[];
  people: number;
  value: number;
}

/** The tier a country's sites count under, and whether an override put them there. */
export type TierOf = (iso: string) => { tier: string | null; overridden: boolean };

/** Sites, people and value by tier (`tierOf` says whose tier: ours, the team's, the provider's). */
export function byTier(groups: Map<string, CountryGroup>, tierOf: TierOf) {
  type Entry = { tier: string; sites: number; people: number; value: number; overridden: number };
  const tiers = new Map<string, Entry>();
  for (const group of groups.values()) {
    // Our override counts a country's sites under our tier (issue 31), and says how many.
    const ours = tierOf(group.iso);
    const tier = ours.tier ?? 'unknown';
    const entry = tiers.get(tier) ?? { tier, sites: 0, people: 0, value: 0, overridden: 0 };
    if (ours.overridden) entry.overridden += group.sites.length;
    entry.sites += group.sites.length;
    entry.people += group.people;
    entry.value += group.value;
    tiers.set(tier, entry);
  }
  return [...tiers.values()].sort((a, b) =>
    a.tier === 'unknown' ? 1 : b.tier === 'unknown' ? -1 : compareTiers(a.tier, b.tier),
  );
}
