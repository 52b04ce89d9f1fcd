import { CATEGORY_NAMES, type CategoryName } from '../shared/categories.js';
import { clamp, hashString, mix, round2, unit, valueNoise } from './prng.js';
import { BASE_WEIGHTS, HOTSPOT_BASELINES } from './vocabulary.js';

/**
 * The score model: a country's scores in batch N are a pure function of (ISO, N). Slow and fast
 * value noise along the batch axis give a plausible drift; occasional "shocks" (a sudden rise of
 * the active component that decays over the next batches) give the large moves alerts are about.
 * Deltas are then just the difference to batch N − 1, computed the same way.
 */

export interface CategoryScores {
  score: number;
  static: number;
  active: number;
  weight: number;
}

export interface CountryScores {
  risk: number;
  static: number;
  active: number;
  confidence: number;
  categories: Record<CategoryName, CategoryScores>;
}

/** What does not change from batch to batch: baseline, category weights and emphasis. */
export interface CountryTraits {
  iso: string;
  seed: number;
  baseline: number;
  /** Per category, fractions summing to 1 (whole thousandths, so the sum is exact enough). */
  weights: Record<CategoryName, number>;
  emphasis: Record<CategoryName, number>;
  /** How well covered by sources the country is (0..1); drives confidence. */
  coverage: number;
}

const SHOCK_LOOKBACK = 12;
const SHOCK_DECAY = 0.72;
const SHOCK_CHANCE = 0.012;
export const MAX_RISK = 95;

export function countryTraits(iso: string): CountryTraits {
  const seed = hashString(iso);
  const known = HOTSPOT_BASELINES[iso];
  // Most countries low, fewer moderate: a skewed draw between 6 and 56.
  const baseline = known ?? 6 + 50 * Math.pow(unit(mix(seed, 1)), 1.8);
  const raw = CATEGORY_NAMES.map(
    (name, k) => BASE_WEIGHTS[name] * (0.75 + 0.5 * unit(mix(seed, 2, k))),
  );
  const total = raw.reduce((sum, value) => sum + value, 0);
  const perMille = raw.map((value) => Math.round((value / total) * 1000));
  // Put the rounding remainder on the largest weight so the thousandths sum to exactly 1000.
  const largest = perMille.indexOf(Math.max(...perMille));
  perMille[largest] = (perMille[largest] ?? 0) + 1000 - perMille.reduce((a, b) => a + b, 0);
  const weights = {} as Record<CategoryName, number>;
  const emphasis = {} as Record<CategoryName, number>;
  CATEGORY_NAMES.forEach((name, k) => {
    weights[name] = (perMille[k] ?? 0) / 1000;
    let value = 0.6 + 0.8 * unit(mix(seed, 3, k));
    // Known conflicts read as conflicts: security leads there.
    if (name === 'security' && baseline >= 70) value += 0.6;
    emphasis[name] = value;
  });
  const coverage = clamp(0.25 + baseline / 130 + 0.3 * (unit(mix(seed, 4)) - 0.5), 0.1, 1);
  return { iso, seed, baseline, weights, emphasis, coverage };
}

function shockAt(seed: number, index: number): number {
  let shock = 0;
  for (let k = 0; k < SHOCK_LOOKBACK; k += 1) {
    const batch = index - k;
    if (unit(mix(seed, 20, batch)) >= SHOCK_CHANCE) continue;
    const size = 8 + 10 * unit(mix(seed, 21, batch));
    // One shock in five is a sudden de-escalation.
    const sign = unit(mix(seed, 22, batch)) < 0.2 ? -0.6 : 1;
    shock += sign * size * Math.pow(SHOCK_DECAY, k);
  }
  return shock;
}

export function countryScoresAt(traits: CountryTraits, index: number): CountryScores {
  const { seed, baseline, weights, emphasis } = traits;
  const drift =
    5 * valueNoise(mix(seed, 10), index / 40) +
    2.5 * valueNoise(mix(seed, 11), index / 9) +
    0.9 * valueNoise(mix(seed, 12), index / 1.7);
  const level = clamp(baseline + drift, 1, 92);
  const staticShare = 0.64 + 0.1 * valueNoise(mix(seed, 30), index / 60);
  const staticTotal = level * staticShare;
  const activeTotal = clamp(level * (1 - staticShare) + shockAt(seed, index), 0, MAX_RISK);

  const activeMix = {} as Record<CategoryName, number>;
  for (const [k, name] of CATEGORY_NAMES.entries()) {
    activeMix[name] = 1 + 0.3 * valueNoise(mix(seed, 40, k), index / 5);
  }
  const staticNorm = CATEGORY_NAMES.reduce((s, name) => s + weights[name] * emphasis[name], 0);
  const activeNorm = CATEGORY_NAMES.reduce((s, name) => s + weights[name] * activeMix[name], 0);

  const categories = {} as Record<CategoryName, CategoryScores>;
  let staticSum = 0;
  let activeSum = 0;
  for (const name of CATEGORY_NAMES) {
    let categoryStatic = (staticTotal * emphasis[name]) / staticNorm;
    let categoryActive = (activeTotal * activeMix[name]) / activeNorm;
    const over = categoryStatic + categoryActive - MAX_RISK;
    if (over > 0) {
      const scale = MAX_RISK / (categoryStatic + categoryActive);
      categoryStatic *= scale;
      categoryActive *= scale;
    }
    const s = round2(categoryStatic);
    const a = round2(categoryActive);
    const score = Math.min(MAX_RISK, round2(s + a));
    categories[name] = { score, static: s, active: round2(score - s), weight: weights[name] };
    staticSum += weights[name] * s;
    activeSum += weights[name] * categories[name].active;
  }
  const staticScore = round2(staticSum);
  const activeScore = round2(Math.min(activeSum, MAX_RISK - staticScore));
  const risk = round2(staticScore + activeScore);

  const confidence = Math.round(
    clamp(100 * traits.coverage + 12 * valueNoise(mix(seed, 50), index / 6), 8, 99),
  );
  return { risk, static: staticScore, active: activeScore, confidence, categories };
}
