import type { Categories } from '../../../../shared/schemas/category';
import { humanise } from '../../../lib/format';

export interface CategoryRow {
  key: string;
  label: string;
  score: number | null;
  static: number | null;
  active: number | null;
  weight: number | null;
  /** Our weight's share of all our weights (the team view), else null. */
  ours: number | null;
}

const num = (value: number | null | undefined): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

/**
 * Categories as rows, highest score first (unscored last); unknown category names are kept.
 * With `ourWeights` each row has our weight's share (0.25 is 25 %), as the team index uses it.
 */
export function categoryRows(
  categories: Categories | null | undefined,
  ourWeights: Readonly<Record<string, number>> | null = null,
): CategoryRow[] {
  if (!categories) return [];
  const total = ourWeights ? Object.values(ourWeights).reduce((sum, w) => sum + w, 0) : 0;
  const share = (key: string): number | null =>
    ourWeights && total > 0 ? (ourWeights[key] ?? 0) / total : null;
  return Object.entries(categories)
    .map(([key, value]) => ({
      key,
      label: humanise(key),
      score: num(value.score),
      static: num(value.static),
      active: num(value.active),
      weight: num(value.weight),
      ours: share(key),
    }))
    .sort((a, b) => (b.score ?? -Infinity) - (a.score ?? -Infinity) || a.key.localeCompare(b.key));
}

/** "15 %": weights are documented as shares of 1; a value above 1 is shown as sent. */
export function formatWeight(weight: number | null): string {
  if (weight === null) return 'n/a';
  if (weight > 1) return String(Math.round(weight * 100) / 100);
  return `${(weight * 100).toFixed(weight * 100 < 10 ? 1 : 0)} %`;
}
