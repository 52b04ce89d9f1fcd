import type { MethodMark } from '../../../../shared/method-api';
import { heldChangesBetween, methodChangeWords } from '../../../lib/method-caveat';
import type { CountryHistoryPoint } from '../../../../shared/history-api';
import { formatSigned, humanise } from '../../../lib/format';
import { tierWord } from '../../../lib/tier-words';

/** Category moves smaller than this (after rounding to one decimal) are not worth naming. */
const NOTABLE = 0.05;
const NAMED = 3;

interface Move {
  category: string;
  delta: number;
}

function difference(now: number | null | undefined, then: number | null | undefined) {
  return typeof now === 'number' && typeof then === 'number' ? now - then : null;
}

/** Category changes between two points, by active part when both have it, else by score. */
function categoryMoves(previous: CountryHistoryPoint, latest: CountryHistoryPoint): Move[] {
  if (!previous.categories || !latest.categories) return [];
  const moves: Move[] = [];
  for (const [category, now] of Object.entries(latest.categories)) {
    const then = previous.categories[category];
    if (!then) continue;
    const delta = difference(now.active, then.active) ?? difference(now.score, then.score);
    if (delta !== null && Math.abs(delta) >= NOTABLE) moves.push({ category, delta });
  }
  return moves.sort((a, b) => Math.abs(b.delta) - Math.abs(a.delta)).slice(0, NAMED);
}

/**
 * "What drove the latest change", from the last two points: "Active +15.7: security +22.1, civil
 * unrest +9.0". The active score is what moves between batches (static is the slow baseline), so
 * it leads; the categories that moved most follow, largest first. Null with fewer than two points.
 */
export function describeLatestChange(
  points: readonly CountryHistoryPoint[],
  methodChanges: readonly MethodMark[] = [],
): string | null {
  const latest = points.at(-1);
  const previous = points.at(-2);
  if (!latest || !previous) return null;
  // Across a method change the difference is two methods' scores (issue 31): said first.
  const method = heldChangesBetween(methodChanges, previous.as_of, latest.as_of)[0];
  const caveat = method ? `The provider's ${methodChangeWords(method)}: not comparable. ` : '';
  const active = difference(latest.active, previous.active);
  const risk = difference(latest.risk, previous.risk);
  const moves = categoryMoves(previous, latest);
  // One decimal as in the header's deltas, two where one would round a real move to "0.0".
  const shown = (value: number): string => formatSigned(value, Math.abs(value) < 0.05 ? 2 : 1);
  const lead =
    active !== null
      ? `Active ${shown(active)}`
      : risk !== null
        ? `Risk ${shown(risk)}`
        : 'Change not reported';
  const tierChange =
    latest.tier && previous.tier && latest.tier !== previous.tier
      ? ` (tier ${tierWord(previous.tier)} → ${tierWord(latest.tier)})`
      : '';
  if (moves.length === 0) {
    return `${caveat}${lead}${tierChange}: no category moved by 0.1 or more.`;
  }
  const named = moves
    .map((move) => `${humanise(move.category).toLowerCase()} ${formatSigned(move.delta, 1)}`)
    .join(', ');
  return `${caveat}${lead}${tierChange}: ${named}`;
}
