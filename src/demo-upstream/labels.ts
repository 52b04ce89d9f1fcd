import { CATEGORY_NAMES, type CategoryName } from '../shared/categories.js';
import { tierForRisk } from '../shared/tiers.js';
import { mix, round2, unit } from './prng.js';
import type { BatchScores } from './payload-types.js';
import type { CountryScores, CountryTraits } from './scores.js';
import { PROFILE_BY_CATEGORY, STABLE_PROFILE, THREAT_VECTORS_BY_CATEGORY } from './vocabulary.js';

/** Profile and threat vectors follow the categories that contribute most to the risk. */

function rankedCategories(scores: CountryScores): CategoryName[] {
  const contribution = (name: CategoryName): number =>
    scores.categories[name].score * scores.categories[name].weight;
  return [...CATEGORY_NAMES].sort((a, b) => contribution(b) - contribution(a));
}

export function profileOf(scores: CountryScores): string {
  if (scores.risk < 20) return STABLE_PROFILE;
  const top = rankedCategories(scores)[0];
  return top ? PROFILE_BY_CATEGORY[top] : STABLE_PROFILE;
}

export function threatVectorsOf(
  traits: CountryTraits,
  scores: CountryScores,
  index: number,
): string[] {
  const wanted = scores.risk < 25 ? 1 : scores.risk < 55 ? 2 : 3;
  const vectors: string[] = [];
  // The choice inside a category changes slowly (every ~8 batches), not on every batch.
  const epoch = Math.floor(index / 8);
  for (const [rank, name] of rankedCategories(scores).entries()) {
    if (vectors.length >= wanted) break;
    const options = THREAT_VECTORS_BY_CATEGORY[name];
    const choice = options[Math.floor(unit(mix(traits.seed, 60, rank, epoch)) * options.length)];
    if (choice && !vectors.includes(choice)) vectors.push(choice);
  }
  return vectors;
}

/** One country's figures in a batch, the same for a live batch and a seeded past one. */
export function countryFigures(
  now: CountryScores,
  before: CountryScores,
  traits: CountryTraits,
  index: number,
) {
  return {
    risk: now.risk,
    tier: tierForRisk(now.risk),
    static: now.static,
    active: now.active,
    delta_active: round2(now.active - before.active),
    delta_headline: round2(now.risk - before.risk),
    confidence: now.confidence,
    profile: profileOf(now),
    threat_vectors: threatVectorsOf(traits, now, index),
  };
}

/** The global index's figures in a batch (all but its event count), live or seeded. */
export function globalFigures(scores: BatchScores, yesterday: BatchScores) {
  return {
    ggri: scores.global.ggri,
    tier: tierForRisk(scores.global.ggri),
    delta_vs_yesterday: round2(scores.global.ggri - yesterday.global.ggri),
    static: scores.global.static,
    active: scores.global.active,
  };
}
