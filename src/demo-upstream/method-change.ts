import { CATEGORY_NAMES } from '../shared/categories.js';
import { tierForRisk } from '../shared/tiers.js';
import type { Batch, CountryOut, TierCounts } from './payload-types.js';
import { round2 } from './prng.js';

/**
 * The provider changing its method (issue 31): from a given time on, every batch is scored by
 * a new methodology version whose scores are the old ones × 0.6. The world did not move; only
 * the scale did. Tiers follow the rescaled risk, as a provider's own thresholds would.
 */
export const RESCALED_METHODOLOGY_VERSION = 'ggri-m 4.0';
export const RESCALE_FACTOR = 0.6;

export interface MethodChange {
  /** Batches whose `as_of` (epoch ms) is at or after this are scored by the new method. */
  fromMs: number;
}

const scaled = (value: number): number => round2(value * RESCALE_FACTOR);

function rescaledCountry(country: CountryOut): CountryOut {
  const categories = { ...country.categories };
  for (const name of CATEGORY_NAMES) {
    const part = country.categories[name];
    categories[name] = {
      ...part,
      score: scaled(part.score),
      static: scaled(part.static),
      active: scaled(part.active),
    };
  }
  const risk = scaled(country.risk);
  return {
    ...country,
    risk,
    tier: tierForRisk(risk),
    static: scaled(country.static),
    active: scaled(country.active),
    delta_active: scaled(country.delta_active),
    delta_headline: scaled(country.delta_headline),
    categories,
  };
}

/** `batch` as the new method scores it (a new object: the original stays cached as it was). */
export function rescaledBatch(batch: Batch): Batch {
  const countries = batch.countries.map(rescaledCountry);
  countries.sort((a, b) => b.risk - a.risk || a.iso.localeCompare(b.iso));
  const counts: TierCounts = { countries: countries.length, crit: 0, high: 0, mod: 0, low: 0 };
  for (const country of countries) counts[tierForRisk(country.risk)] += 1;
  const ggri = scaled(batch.global.ggri);
  return {
    ...batch,
    methodologyVersion: RESCALED_METHODOLOGY_VERSION,
    global: {
      ...batch.global,
      ggri,
      tier: tierForRisk(ggri),
      delta_vs_yesterday: scaled(batch.global.delta_vs_yesterday),
      static: scaled(batch.global.static),
      active: scaled(batch.global.active),
    },
    counts,
    countries,
    byIso: new Map(countries.map((country) => [country.iso, country])),
  };
}

/** The batch as served: rescaled when a method change is in force for its time. */
export function withMethod(
  batch: Batch,
  change: MethodChange | undefined,
  memo: WeakMap<Batch, Batch>,
): Batch {
  if (!change || batch.asOfMs < change.fromMs) return batch;
  const known = memo.get(batch);
  if (known) return known;
  const rescaled = rescaledBatch(batch);
  memo.set(batch, rescaled);
  return rescaled;
}
