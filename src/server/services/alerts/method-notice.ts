import { METHOD_NOTICE_ISO, type AlertNumbers } from '../../../shared/alerts-api.js';
import { signed, type Firing } from './alert-rules.js';

/** The provider's method change a batch makes (issue 31), as the evaluator sees it. */
export interface MethodChange {
  from: string;
  to: string;
  /** An admin said the scores are comparable after all: nothing is held. */
  comparable: boolean;
}

export const METHOD_NOTICE_RULE = 'method_change';

/** Rules that compare two batches are held across a method change; breaking events are not. */
export const heldAcrossMethodChange = (firing: Firing): boolean =>
  firing.rule.kind !== 'breaking_event';

/** How the list's countries moved across the change: how many, and by how much on average. */
export function listMoves(
  countries: readonly string[],
  before: ReadonlyMap<string, AlertNumbers>,
  after: ReadonlyMap<string, { numbers: AlertNumbers }>,
): { compared: number; moved: number; meanRisk: number | null } {
  let compared = 0;
  let moved = 0;
  let sum = 0;
  for (const iso of countries) {
    const was = before.get(iso)?.risk;
    const now = after.get(iso)?.numbers.risk;
    if (was == null || now == null) continue;
    compared += 1;
    if (Math.abs(now - was) < 0.05) continue;
    moved += 1;
    sum += now - was;
  }
  return { compared, moved, meanRisk: moved > 0 ? sum / moved : null };
}

/** The one notice's words: what changed, that the scores are not comparable, how the list moved. */
export function methodNoticeMessage(
  change: MethodChange,
  moves: ReturnType<typeof listMoves>,
  held: number,
  /** Whether marking the change comparable releases them (a watchlist's rules; not site alerts). */
  releasable = true,
): string {
  const mean = moves.meanRisk === null ? '' : `, risk ${signed(moves.meanRisk)} on average`;
  return (
    `The provider changed its method from ${change.from} to ${change.to} with this batch: ` +
    `scores are not comparable across it. ${moves.moved} of the list's ${moves.compared} ` +
    `countries moved${mean}. ${held} ordinary alert${held === 1 ? ' was' : 's were'} held` +
    (releasable ? '; an admin can mark the change comparable to release them.' : '.')
  );
}

export const METHOD_NOTICE_COUNTRY = 'Countries of the list';
export { METHOD_NOTICE_ISO };
