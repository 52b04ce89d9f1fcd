import type { Categories } from '../../../../shared/schemas/category';
import { humanise } from '../../../lib/format';

export interface CategoryRow {
  key: string;
  label: string;
  score: number | null;
  static: number | null;
  active: number | null;
  weight: number | null;
}

const num = (value: number | null | undefined): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

/** Categories as rows, highest score first (unscored last); unknown category names are kept. */
export function categoryRows(categories: Categories | null | undefined): CategoryRow[] {
  if (!categories) return [];
  return Object.entries(categories)
    .map(([key, value]) => ({
      key,
      label: humanise(key),
      score: num(value.score),
      static: num(value.static),
      active: num(value.active),
      weight: num(value.weight),
    }))
    .sort((a, b) => (b.score ?? -Infinity) - (a.score ?? -Infinity) || a.key.localeCompare(b.key));
}

/** "15 %": weights are documented as shares of 1; a value above 1 is shown as sent. */
export function formatWeight(weight: number | null): string {
  if (weight === null) return 'n/a';
  if (weight > 1) return String(Math.round(weight * 100) / 100);
  return `${(weight * 100).toFixed(weight * 100 < 10 ? 1 : 0)} %`;
}
