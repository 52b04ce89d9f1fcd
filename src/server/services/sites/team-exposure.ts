import type { ExposureResponse } from '../../../shared/sites-api.js';
import { bandOf, teamIndexOf } from '../../../shared/team-index-api.js';
import { teamNote, type TeamLens } from '../team-index/team-view.js';
import type { BatchCountries } from './current-batch.js';
import { byTier, type CountryGroup, type TierOf } from './exposure-tiers.js';

/** The team's tier of a country: our override's where one is in force, else its index's band. */
function teamTierOf(batch: BatchCountries, lens: TeamLens): TierOf {
  return (iso) => {
    const override = lens.overrides.get(iso);
    if (override) return { tier: override.tier, overridden: true };
    const row = batch.byIso.get(iso);
    return {
      tier: row ? bandOf(teamIndexOf(row.categories, lens.weights.weights)) : null,
      overridden: false,
    };
  };
}

/** The provider's own tier, no override: what the provider's view of the same sites says. */
function providerTierOf(batch: BatchCountries): TierOf {
  return (iso) => ({ tier: batch.byIso.get(iso)?.tier ?? null, overridden: false });
}

/**
 * `/api/exposure?index=team` (issue 31): sites and people by OUR tier, the team index's band
 * with our weights (the lens's) or our override's tier where one is in force, with the
 * provider's own count beside it under `provider.by_tier`, and the team note under `team_index`
 * (`index` is the exposure index's). The moves, the riskiest sites and the exposure index stay
 * on the provider's risk with our overrides, as in the provider view: `team_index.note` says so.
 */
export function teamExposure(
  answer: ExposureResponse,
  groups: Map<string, CountryGroup>,
  batch: BatchCountries,
  lens: TeamLens,
): ExposureResponse {
  const note = teamNote(lens.weights, lens.used);
  return {
    ...answer,
    by_tier: byTier(groups, teamTierOf(batch, lens)),
    provider: { by_tier: byTier(groups, providerTierOf(batch)) },
    team_index: {
      ...note,
      note:
        `by_tier counts sites and people by the team index "${note.name}" (its band, or our override's tier); ` +
        "the provider's count is under provider.by_tier; moved, riskiest and index keep the provider's risk with our overrides",
    },
  };
}
