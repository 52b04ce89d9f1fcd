import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pastBatches } from '../../src/demo-upstream/history-seed.js';
import { demoSeedRecord } from '../../src/server/compose/demo.js';
import {
  TEAM_BATCHES_PER_READ,
  TEAM_ROW_BATCHES_PER_READ,
  teamIndexOverHistory,
  type TeamHistoryReads,
} from '../../src/server/services/team-index/team-history.js';
import { selectBatchRefs } from '../../src/server/store/alerts.js';
import { selectCountryRows } from '../../src/server/store/batches.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import {
  fillBatchScores,
  selectBatchesWithoutScores,
  selectBatchScores,
  selectTeamIndexes,
} from '../../src/server/store/team-index.js';
import { teamIndexOf, weightsOf } from '../../src/shared/team-index-api.js';
import { openTestStore, STORE_BACKENDS } from '../helpers/history-store.js';
import { countLoopTurns } from '../helpers/loop-turns.js';

/*
 * Issue 31's speed: a recompute of the team index over the history reads each batch's compact
 * scores (`batch_scores`, migration 0012) a bounded number of batches a statement, yields
 * between statements, and answers exactly what the stored categories give.
 */
const BATCHES = 45;
const WEIGHTS = [
  { security: 2, economic: 1, infrastructure: 3 },
  { cyber: 5, health: 1 },
  { political: 1, civil_unrest: 1, crime: 1, regulatory: 4, advisory: 2 },
].map(weightsOf);

/** The store's reads, counted: batches per statement, and event-loop turns seen before each. */
function countedReads() {
  const loop = countLoopTurns();
  // Turns seen when each statement starts and when it has ended: other work ran between two
  // statements only if the recompute yielded (the store's own awaits are not counted).
  const seen = {
    compact: [] as number[],
    rows: [] as number[],
    turnsAt: [] as number[],
    endedAt: [] as number[],
  };
  const counted = async <T>(read: () => Promise<T>): Promise<T> => {
    seen.turnsAt.push(loop.turns());
    const answer = await read();
    seen.endedAt.push(loop.turns());
    return answer;
  };
  const reads: TeamHistoryReads = {
    compact: (db, ids) => {
      seen.compact.push(ids.length);
      return counted(() => selectBatchScores(db, ids));
    },
    rows: (db, ids, weights, isos) => {
      seen.rows.push(ids.length);
      return counted(() => selectTeamIndexes(db, ids, weights, isos));
    },
  };
  return { reads, seen, stop: loop.stop };
}

describe.each(STORE_BACKENDS)('the team index over the history (%s)', (backend) => {
  let store: HistoryStore;
  let ids: number[];
  beforeAll(async () => {
    store = await openTestStore(backend);
    for (const batch of pastBatches(Date.UTC(2026, 2, 10, 12), BATCHES)) {
      await store.recordBatch(demoSeedRecord(batch));
    }
    ids = (await selectBatchRefs(store.db)).map((ref) => ref.id);
  }, 120_000);
  afterAll(async () => store?.close());

  it('equals the weighted mean of every stored row, with each weight change', async () => {
    expect(ids).toHaveLength(BATCHES);
    for (const weights of WEIGHTS) {
      const all = await teamIndexOverHistory(store.db, ids, weights);
      for (const id of [ids[0]!, ids[17]!, ids.at(-1)!]) {
        const rows = await selectCountryRows(store.db, id);
        expect(rows.length).toBeGreaterThan(100);
        const expected = new Map(rows.map((r) => [r.iso, teamIndexOf(r.categories, weights)]));
        expect(all.get(id)).toEqual(expected);
      }
      // And the same floats as the store's own sum over the jsonb categories, every batch.
      const fromRows = await selectTeamIndexes(store.db, ids, weights, null);
      expect(all).toEqual(fromRows);
    }
  });

  it('reads compact rows, a bounded number of batches a statement, yielding between', async () => {
    const { reads, seen, stop } = countedReads();
    const isos = ['POL', 'UKR', 'KEN'];
    const some = await teamIndexOverHistory(store.db, ids, WEIGHTS[1]!, isos, reads);
    stop();
    expect(
      [...some.values()].every(
        (batch) => [...batch.keys()].sort().join() === [...isos].sort().join(),
      ),
    ).toBe(true);
    expect(seen.rows).toEqual([]);
    expect(seen.compact).toEqual([10, 10, 10, 10, 5]);
    expect(Math.max(...seen.compact)).toBeLessThanOrEqual(TEAM_BATCHES_PER_READ);
    // Other work (here: an immediate callback) ran between any two statements.
    for (let i = 1; i < seen.turnsAt.length; i++) {
      expect(seen.turnsAt[i]).toBeGreaterThan(seen.endedAt[i - 1]!);
    }
  });

  it('reads a batch without compact scores from its rows, a few at a time, same answers', async () => {
    const weights = WEIGHTS[2]!;
    const before = await teamIndexOverHistory(store.db, ids, weights);
    const dropped = ids.slice(3, 15);
    await store.db.execute(`delete from batch_scores where batch_id in (${dropped.join(',')})`);
    try {
      const { reads, seen, stop } = countedReads();
      const after = await teamIndexOverHistory(store.db, ids, weights, null, reads);
      stop();
      expect(after).toEqual(before);
      expect(seen.rows.reduce((a, b) => a + b, 0)).toBe(dropped.length);
      expect(Math.max(...seen.rows)).toBeLessThanOrEqual(TEAM_ROW_BATCHES_PER_READ);
      for (let i = 1; i < seen.turnsAt.length; i++) {
        expect(seen.turnsAt[i]).toBeGreaterThan(seen.endedAt[i - 1]!);
      }
    } finally {
      await backfill(store);
    }
  });

  it('the background filler writes what recording writes', async () => {
    const recorded = await selectBatchScores(store.db, ids);
    await store.db.execute('delete from batch_scores');
    await backfill(store);
    const filled = await selectBatchScores(store.db, ids);
    const parsed = (rows: typeof recorded) =>
      new Map(rows.map((row) => [row.batchId, JSON.parse(row.text) as unknown]));
    expect(filled).toHaveLength(BATCHES);
    expect(parsed(filled)).toEqual(parsed(recorded));
  });

  it('goes with its batch under retention', async () => {
    const [{ n: before }] = (await countScores(store)) as [{ n: number }];
    expect(Number(before)).toBe(BATCHES);
    await store.db.execute(`delete from batches where id = ${ids[0]}`);
    const [{ n: after }] = (await countScores(store)) as [{ n: number }];
    expect(Number(after)).toBe(BATCHES - 1);
  });
});

async function countScores(store: HistoryStore) {
  const result = await store.db.execute('select count(*) as n from batch_scores');
  return (result as unknown as { rows: unknown[] }).rows;
}

/** Writes every batch's compact scores again, as the background filler does (a few a statement). */
async function backfill(store: HistoryStore): Promise<void> {
  const ids = await selectBatchesWithoutScores(store.db, 10_000);
  for (let at = 0; at < ids.length; at += 2) await fillBatchScores(store.db, ids.slice(at, at + 2));
}
