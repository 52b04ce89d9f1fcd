import type { MethodMark } from '../../../../shared/method-api';
import { heldChangesBetween } from '../../../lib/method-caveat';
import type { CountryHistoryPoint } from '../../../../shared/history-api';
import { formatSigned, formatUtcDateTime, humanise } from '../../../lib/format';
import { t } from '../../../lib/i18n';
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

/** "Active +15.7" (or the risk's change, or "Change not reported"), in the page language. */
function leadOf(active: number | null, risk: number | null): string {
  // One decimal as in the header's deltas, two where one would round a real move to "0.0".
  const shown = (value: number): string => formatSigned(value, Math.abs(value) < 0.05 ? 2 : 1);
  if (active !== null) return t('latestChange.active', { change: shown(active) });
  if (risk !== null) return t('latestChange.risk', { change: shown(risk) });
  return t('latestChange.notReported');
}

/** The latest change in parts: the sentence's lead, then the categories that moved most. */
export interface LatestChange {
  /** The method caveat, "Active +15.7" and the tier change, in the page language. */
  lead: string;
  /** Each category's name as the upstream gave it (readable, not translated) and its change. */
  moves: Array<{ category: string; change: string }>;
}

/**
 * "What drove the latest change", from the last two points: "Active +15.7: security +22.1, civil
 * unrest +9.0". The active score is what moves between batches (static is the slow baseline), so
 * it leads; the categories that moved most follow, largest first. Null with fewer than two points.
 * In the page language (issue 34); the categories' names are the upstream's, kept as they came.
 */
export function latestChange(
  points: readonly CountryHistoryPoint[],
  methodChanges: readonly MethodMark[] = [],
): LatestChange | null {
  const latest = points.at(-1);
  const previous = points.at(-2);
  if (!latest || !previous) return null;
  // Across a method change the difference is two methods' scores (issue 31): said first.
  const method = heldChangesBetween(methodChanges, previous.as_of, latest.as_of)[0];
  const caveat = method
    ? t('latestChange.methodCaveat', {
        from: method.from,
        to: method.to,
        date: formatUtcDateTime(method.as_of),
      })
    : '';
  const lead = leadOf(
    difference(latest.active, previous.active),
    difference(latest.risk, previous.risk),
  );
  const tierChange =
    latest.tier && previous.tier && latest.tier !== previous.tier
      ? t('latestChange.tierChange', { from: tierWord(previous.tier), to: tierWord(latest.tier) })
      : '';
  return {
    lead: `${caveat}${lead}${tierChange}`,
    moves: categoryMoves(previous, latest).map((move) => ({
      category: humanise(move.category).toLowerCase(),
      change: formatSigned(move.delta, 1),
    })),
  };
}

/** The latest change as one line of text (what the panel shows, without its markup). */
export function describeLatestChange(
  points: readonly CountryHistoryPoint[],
  methodChanges: readonly MethodMark[] = [],
): string | null {
  const change = latestChange(points, methodChanges);
  if (!change) return null;
  if (change.moves.length === 0) return `${change.lead}${t('latestChange.noCategory')}`;
  const named = change.moves
    .map((move) => `${move.category} ${move.change}`)
    .join(t('latestChange.join'));
  return `${change.lead}${t('latestChange.categoriesLead')}${named}`;
}
