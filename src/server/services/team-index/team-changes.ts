import { CATEGORY_NAMES } from '../../../shared/categories.js';
import type { ChangesResponse, CountryChange } from '../../../shared/history-api.js';
import { bandOf } from '../../../shared/team-index-api.js';
import { tierDirection } from '../../../shared/tiers.js';
import { teamIndexOfScores } from './team-history.js';
import {
  teamNote,
  type CompactScores,
  type ScoresAt,
  type ScoresByIso,
  type TeamLens,
} from './team-view.js';

const round2 = (value: number): number => Math.round(value * 100) / 100;

/**
 * What changed (`/api/changes`) in the team view (issue 31): each country's `delta_risk`,
 * `then.risk` and `now.risk` become the team index of the two batches with the same weights (the
 * lens's: a move of the world, not of the weights), tiers its bands (our override where one is in
 * force at the newer batch), sorted by the team move; the provider's figures stay under
 * `provider`. The two batches' compact scores may not be written yet (a store migrated before the
 * filler ran): then no figure is given, `index.computing` says so, and the client says
 * "computing" rather than show a provider figure under the team's name.
 *
 * Reads the scores, then answers either that final "computing" body or `build`, which makes the
 * team answer from what was read: the caller holds what `build` makes (it depends only on the
 * body, the lens and the two batches' scores, which never change once written) and must not hold
 * a "computing" body, which ends when the filler reaches the batches.
 */
export async function teamChanges(
  body: ChangesResponse,
  lens: TeamLens,
  compact: CompactScores,
): Promise<{ computing: object } | { build: () => object }> {
  const note = teamNote(lens.weights, lens.used);
  const pair = [body.from_batch, body.to_batch].map((b) => (b ? new Date(b.as_of) : null));
  const [from, to] = pair;
  if (!from || !to) return { build: () => ({ ...body, index: note }) };
  const scores = await compact.at([from, to]);
  const [then, now] = [scores.get(from.getTime()), scores.get(to.getTime())];
  if (!then || !now) {
    const computing = { batches_left: compact.left() };
    return { computing: { ...body, index: { ...note, computing }, countries: [] } };
  }
  return { build: () => ({ ...body, index: note, countries: teamMoves(body, lens, then, now) }) };
}

/** Each country's move in the team index between two batches' compact scores, largest first. */
function teamMoves(
  body: ChangesResponse,
  lens: TeamLens,
  then: ScoresByIso,
  now: ScoresByIso,
): CountryChange[] {
  const order = CATEGORY_NAMES.map((name) => lens.weights.weights[name] ?? 0);
  const countries = body.countries.map((row) => {
    const iso = row.iso.toUpperCase();
    const [before, after] = [then[iso], now[iso]].map((s) => teamIndexOfScores(s, order));
    const override = lens.overrides.get(iso);
    const [tierThen, tierNow] = [bandOf(before ?? null), override?.tier ?? bandOf(after ?? null)];
    return {
      ...row,
      then: { ...row.then, risk: before ?? null, tier: tierThen },
      now: { ...row.now, risk: after ?? null, tier: tierNow },
      delta_risk: before == null || after == null ? null : round2(after - before),
      tier_change: tierDirection(tierThen, tierNow),
      provider: {
        delta_risk: row.delta_risk,
        then: { risk: row.then.risk, tier: row.then.tier },
        now: { risk: row.now.risk, tier: row.now.tier },
      },
    } satisfies CountryChange;
  });
  return countries.sort(
    (a, b) =>
      Math.abs(b.delta_risk ?? 0) - Math.abs(a.delta_risk ?? 0) || a.iso.localeCompare(b.iso),
  );
}

/** Batches whose compact scores are held: What changed compares two, the as-of views a few more. */
const SCORES_HELD = 8;

/**
 * `read`, holding the last SCORES_HELD batches found: a batch's compact scores do not change once
 * written, so the team view's What changed asks the store once per batch, not per request (the
 * overview in the team view within 10 % of the provider's, docs/benchmarks.md section 13). A batch
 * not found yet (the filler has not reached it) is not held, so "computing" ends when it has.
 */
export function heldScores(read: ScoresAt): ScoresAt {
  const held = new Map<number, ScoresByIso>();
  return async (times) => {
    const wanted = times.filter((time) => !held.has(time.getTime()));
    const found = wanted.length > 0 ? await read(wanted) : new Map<number, ScoresByIso>();
    for (const [at, scores] of found) {
      held.set(at, scores);
      if (held.size > SCORES_HELD) held.delete(held.keys().next().value!);
    }
    const answer = new Map<number, ScoresByIso>();
    for (const time of times) {
      const scores = held.get(time.getTime()) ?? found.get(time.getTime());
      if (scores) answer.set(time.getTime(), scores);
    }
    return answer;
  };
}
