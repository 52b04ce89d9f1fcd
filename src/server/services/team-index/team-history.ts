import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Database } from '../../store/connection.js';
import { selectTeamIndexes, type TeamIndexes } from '../../store/team-index.js';

/**
 * Batches whose team index one statement computes: with PGlite the statement runs on this
 * thread, so the history is read a few batches at a time and other requests are answered
 * between statements (docs/benchmarks.md, section 13).
 */
export const TEAM_BATCHES_PER_READ = 10;

/**
 * The team index of every country (of `isos`, when given) in every batch of `batchIds`, with
 * `weights`: the whole recorded history after a weight change, for a backtest of the team index
 * rule or the benchmark. Computed in the store from the categories it keeps, a chunk of batches
 * at a time, yielding the event loop between chunks.
 */
export async function teamIndexOverHistory(
  db: Database,
  batchIds: readonly number[],
  weights: Record<string, number>,
  isos: readonly string[] | null = null,
): Promise<Map<number, TeamIndexes>> {
  const all = new Map<number, TeamIndexes>();
  for (let at = 0; at < batchIds.length; at += TEAM_BATCHES_PER_READ) {
    if (at > 0) await nextTurn();
    const chunk = batchIds.slice(at, at + TEAM_BATCHES_PER_READ);
    for (const [id, indexes] of await selectTeamIndexes(db, chunk, weights, isos)) {
      all.set(id, indexes);
    }
  }
  return all;
}
