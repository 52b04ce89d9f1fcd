import { CATEGORY_NAMES } from '../../../shared/categories.js';
import type { Database } from '../../store/connection.js';
import { selectBatchScores, selectTeamIndexes, type TeamIndexes } from '../../store/team-index.js';
import { TimeSlice } from '../../work/time-slice.js';

/**
 * Batches whose compact scores (`batch_scores`, one row of ~13 KB a batch) one statement reads:
 * with PGlite the statement runs on this thread, so the history is read a few batches at a time
 * and other requests are answered between statements (docs/benchmarks.md, section 13).
 */
export const TEAM_BATCHES_PER_READ = 10;

/**
 * The longest one slice of the recompute's own work (parsing and weighing) holds the thread:
 * half the house slice, because a store statement (on this thread with PGlite) and another
 * request's answer must still fit in the 50 ms the issue allows, on a busy machine too.
 */
export const TEAM_SLICE_MS = 5;

/**
 * Batches recorded without compact scores (by a process older than migration 0012, on a shared
 * PostgreSQL) are computed from their rows' jsonb categories: slower, so fewer at a time.
 */
export const TEAM_ROW_BATCHES_PER_READ = 5;

/** Where one read of the history goes: what the tests count (statements and their batches). */
export interface TeamHistoryReads {
  compact(db: Database, batchIds: readonly number[]): ReturnType<typeof selectBatchScores>;
  rows(
    db: Database,
    batchIds: readonly number[],
    weights: Record<string, number>,
    isos: readonly string[] | null,
  ): ReturnType<typeof selectTeamIndexes>;
}

const STORE_READS: TeamHistoryReads = { compact: selectBatchScores, rows: selectTeamIndexes };

/**
 * `batchIds` cut into runs of at most `size` batches read by one statement each: sorted, so each
 * run is a narrow range of the primary key (the statement reads that range, not a list tested
 * against the table).
 */
export function batchRanges(batchIds: readonly number[], size: number): number[][] {
  const sorted = [...batchIds].sort((a, b) => a - b);
  const ranges: number[][] = [];
  for (let at = 0; at < sorted.length; at += size) ranges.push(sorted.slice(at, at + size));
  return ranges;
}

/**
 * The team index of one country from its compact scores (CATEGORY_NAMES order): the same sums
 * in the same order as `teamIndexOf` (src/shared/team-index-api.ts), so the same float.
 */
export function teamIndexOfScores(
  scores: ReadonlyArray<number | null> | undefined,
  weights: readonly number[],
): number | null {
  if (!scores) return null;
  let sum = 0;
  let weightSum = 0;
  for (const [i, weight] of weights.entries()) {
    const score = scores[i];
    if (weight <= 0 || typeof score !== 'number' || !Number.isFinite(score)) continue;
    sum += weight * score;
    weightSum += weight;
  }
  return weightSum === 0 ? null : Math.round((sum / weightSum) * 100) / 100;
}

/**
 * The team index of every country (of `isos`, when given) in every batch of `batchIds`, with
 * `weights`: the whole recorded history after a weight change, for a backtest of the team index
 * rule or the benchmark. Reads each batch's compact scores (a range of TEAM_BATCHES_PER_READ a
 * statement),
 * parses and weighs them here a batch at a time, and yields whenever a slice is spent and
 * between statements, so no other request waits long behind a recompute.
 */
export async function teamIndexOverHistory(
  db: Database,
  batchIds: readonly number[],
  weights: Record<string, number>,
  isos: readonly string[] | null = null,
  reads: TeamHistoryReads = STORE_READS,
): Promise<Map<number, TeamIndexes>> {
  const all = new Map<number, TeamIndexes>();
  const order = CATEGORY_NAMES.map((name) => weights[name] ?? 0);
  const wanted = isos ? new Set(isos) : null;
  const slice = new TimeSlice(TEAM_SLICE_MS);
  const missing: number[] = [];
  for (const [n, chunk] of batchRanges(batchIds, TEAM_BATCHES_PER_READ).entries()) {
    if (n > 0) await slice.yieldNow();
    const found = new Set<number>();
    for (const row of await reads.compact(db, chunk)) {
      await slice.pause();
      found.add(row.batchId);
      const indexes: TeamIndexes = new Map();
      const byIso = JSON.parse(row.text) as Record<string, Array<number | null>>;
      for (const [iso, scores] of Object.entries(byIso)) {
        if (!wanted || wanted.has(iso)) indexes.set(iso, teamIndexOfScores(scores, order));
      }
      all.set(row.batchId, indexes);
    }
    missing.push(...chunk.filter((id) => !found.has(id)));
  }
  for (let at = 0; at < missing.length; at += TEAM_ROW_BATCHES_PER_READ) {
    await slice.yieldNow();
    const chunk = missing.slice(at, at + TEAM_ROW_BATCHES_PER_READ);
    for (const [id, indexes] of await reads.rows(db, chunk, weights, isos)) all.set(id, indexes);
  }
  return new Map(batchIds.map((id) => [id, all.get(id) ?? new Map()]));
}
