import { bandOf, teamIndexOf } from '../../../shared/team-index-api.js';
import type { Categories } from '../../../shared/schemas/category.js';
import { overrideView } from './overrides.js';
import { teamNote, type TeamLens } from './team-view.js';

/** A category's change as the provider's explanation gives it (history/explain.ts). */
interface CategoryDriver {
  category: string;
  delta_score: number | null;
  weight: number | null;
}

/** The provider's explanation (services/history/explain.ts) the team one is made from. */
interface ProviderExplanation {
  delta_risk: number | null;
  categories: CategoryDriver[];
  breaking_events: number;
  sentence: string;
  [field: string]: unknown;
}

const round2 = (value: number): number => Math.round(value * 100) / 100;
const signed = (value: number): string => `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(1)}`;
const words = (category: string): string => category.replace(/_/g, ' ');

/** Each category's share of our weights (0.2 is 20 %); 0 for a category we do not weigh. */
function shares(weights: Record<string, number>): (category: string) => number {
  const total = Object.values(weights).reduce((sum, w) => sum + Math.max(0, w), 0);
  return (category) => (total > 0 ? Math.max(0, weights[category] ?? 0) / total : 0);
}

/**
 * The categories by what they did to OUR index: a category we do not weigh cannot move it, so
 * the ranking is by the change times our weight, not by the change alone (the provider's order).
 */
function teamDrivers<D extends CategoryDriver>(moved: D[], share: (c: string) => number): D[] {
  const pull = (d: CategoryDriver): number => Math.abs((d.delta_score ?? 0) * share(d.category));
  return moved
    .map((d) => ({ ...d, weight: share(d.category) }))
    .sort(
      (a, b) =>
        pull(b) - pull(a) ||
        Math.abs(b.delta_score ?? 0) - Math.abs(a.delta_score ?? 0) ||
        a.category.localeCompare(b.category),
    );
}

function teamSentence(
  name: string,
  delta: number | null,
  providerDelta: number | null,
  drivers: CategoryDriver[],
  breaking: number,
): string {
  const head =
    `Team index "${name}" ${delta === null ? 'unknown' : signed(delta)}` +
    ` (provider's risk ${providerDelta === null ? 'unknown' : signed(providerDelta)})`;
  const top = drivers
    .filter((d) => (d.weight ?? 0) > 0 && d.delta_score !== null && d.delta_score !== 0)
    .slice(0, 3)
    .map(
      (d) =>
        `${words(d.category)} ${signed(d.delta_score ?? 0)} (our weight ${Math.round((d.weight ?? 0) * 100)} %)`,
    );
  const cats = top.length > 0 ? `: ${top.join(', ')}` : ': no category we weigh moved';
  return `${head}${cats}; ${breaking} breaking event${breaking === 1 ? '' : 's'} since`;
}

/**
 * "Why it moved" in the team view (issue 31): the move of OUR index between the two batches,
 * both computed with the same weights (the lens's: a move of the world, not of the weights), the
 * categories ranked and weighted by our weights, the tiers ours (an override in force at the
 * newer batch wins over the band), and the provider's move, categories and sentence beside it
 * under `provider`. A method change is still named first: it moves our index as much as theirs.
 */
export function teamExplanation(
  answer: ProviderExplanation,
  rows: { then: Categories | null; now: Categories | null; iso: string },
  lens: TeamLens,
): object {
  const { weights } = lens.weights;
  const [before, after] = [teamIndexOf(rows.then, weights), teamIndexOf(rows.now, weights)];
  const delta = before === null || after === null ? null : round2(after - before);
  const override = lens.overrides.get(rows.iso.toUpperCase());
  const drivers = teamDrivers(answer.categories, shares(weights));
  // The provider's sentence is the method words (if any), then its own "Risk ±x" part.
  const methodWords = answer.sentence.slice(0, answer.sentence.lastIndexOf('Risk '));
  const sentence = teamSentence(
    lens.weights.name,
    delta,
    answer.delta_risk,
    drivers,
    answer.breaking_events,
  );
  return {
    ...answer,
    index: teamNote(lens.weights, lens.used),
    delta_risk: delta,
    then: { risk: before, tier: bandOf(before) },
    now: { risk: after, tier: override?.tier ?? bandOf(after) },
    tier_source: override ? 'override' : 'team_index',
    override: override ? overrideView(override) : null,
    categories: drivers,
    sentence: `${methodWords}${sentence}`,
    provider: {
      delta_risk: answer.delta_risk,
      categories: answer.categories,
      sentence: answer.sentence,
    },
  };
}
