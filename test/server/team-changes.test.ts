import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BatchScoresFill,
  FILL_ROWS,
  FILL_STATEMENT_TARGET_MS,
  nextReadRows,
  type FillStatements,
} from '../../src/server/jobs/batch-scores-fill.js';
import { selectBatchRefs } from '../../src/server/store/alerts.js';
import { selectCountryRows } from '../../src/server/store/batches.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import {
  insertBatchScores,
  selectBatchesWithoutScores,
  selectBatchScores,
  selectScoreArrays,
} from '../../src/server/store/team-index.js';
import { teamIndexOf, weightsOf } from '../../src/shared/team-index-api.js';
import { startHistoryStack, type HistoryStack } from '../helpers/history-stack.js';
import { openAppStore } from '../helpers/history-store.js';
import { silentLogger } from '../helpers/outbox.js';
import { countLoopTurns } from '../helpers/loop-turns.js';

/*
 * Issue 31, the team view's figures: What changed with `?index=team` gives the team index's
 * moves (the headline deltas, the hotspot table's change column and "why it moved" read it), the
 * provider's beside them; and the compact scores it reads are written by a background filler,
 * a few batches a statement, with "computing" and no figure until they are.
 */
const WEIGHTS = weightsOf({ security: 3, cyber: 1 });

let store: HistoryStore;
let stack: HistoryStack;

beforeAll(async () => {
  store = await openAppStore();
  stack = await startHistoryStack(store, { start: Date.UTC(2026, 4, 2, 8) });
  await stack.nextBatch();
  await stack.nextBatch();
  const current = await stack.app.inject({ method: 'GET', url: '/api/index-weights' });
  const put = await stack.app.inject({
    method: 'PUT',
    url: '/api/index-weights',
    headers: { 'if-match': String(current.headers.etag) },
    payload: { name: 'Security first', weights: WEIGHTS },
  });
  expect(put.statusCode, put.body).toBe(200);
}, 60_000);
afterAll(async () => {
  await stack?.close();
  await store?.close();
});

interface TeamChange {
  iso: string;
  delta_risk: number | null;
  then: { risk: number | null };
  now: { risk: number | null };
  provider?: { delta_risk: number | null };
}

async function changes(query: string) {
  const response = await stack.app.inject({ method: 'GET', url: `/api/changes${query}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as {
    countries: TeamChange[];
    index?: { kind: string; name: string; computing?: { batches_left: number | null } };
  };
}

async function allBatchIds(): Promise<number[]> {
  const result = await store.db.execute('select id from batches order by id');
  return (result as unknown as { rows: Array<{ id: unknown }> }).rows.map((row) => Number(row.id));
}

/** Each country's team index in a recorded batch, by hand from its stored categories. */
async function teamIndexes(batchId: number): Promise<Map<string, number | null>> {
  const rows = await selectCountryRows(store.db, batchId);
  return new Map(rows.map((row) => [row.iso.trim(), teamIndexOf(row.categories, WEIGHTS)]));
}

describe('What changed with ?index=team', () => {
  it('says "computing" and gives no figure until the filler has written both batches', async () => {
    // Before any team answer was asked for (the compact scores asked are then held).
    await store.db.execute('delete from batch_scores');
    const waiting = await changes('?index=team');
    expect(waiting.index?.computing).toBeDefined();
    expect(waiting.countries).toEqual([]);

    const fill = new BatchScoresFill({
      db: store.db,
      scheduler: { at: () => () => undefined },
      now: Date.now,
      logger: silentLogger,
    });
    expect(await fill.job.request()).toBeNull();
    expect(fill.remaining).toBe(0);
    const filled = await changes('?index=team');
    expect(filled.index?.computing).toBeUndefined();
    expect(filled.countries.length).toBe((await changes('')).countries.length);
  });

  it("gives the team index's move of each country, the provider's beside it", async () => {
    const provider = await changes('');
    const team = await changes('?index=team');
    expect(team.index).toMatchObject({ kind: 'team', name: 'Security first' });
    expect(team.index?.computing).toBeUndefined();
    const ids = (await selectBatchRefs(store.db)).map((ref) => ref.id);
    const [then, now] = [await teamIndexes(ids.at(-2)!), await teamIndexes(ids.at(-1)!)];
    expect(team.countries.length).toBe(provider.countries.length);
    const providerOf = new Map(provider.countries.map((c) => [c.iso, c.delta_risk]));
    let differs = 0;
    for (const row of team.countries) {
      const expected = Math.round((now.get(row.iso)! - then.get(row.iso)!) * 100) / 100;
      expect(row.delta_risk, row.iso).toBeCloseTo(expected, 6);
      expect(row.now.risk).toBe(now.get(row.iso));
      expect(row.provider?.delta_risk).toBe(providerOf.get(row.iso));
      if (row.delta_risk !== row.provider?.delta_risk) differs += 1;
    }
    expect(differs).toBeGreaterThan(0);
    // Ranked by the team's move, largest first.
    const moves = team.countries.map((c) => Math.abs(c.delta_risk ?? 0));
    expect(moves).toEqual([...moves].sort((a, b) => b - a));
  });

  it('refuses an unknown index in words', async () => {
    const response = await stack.app.inject({ method: 'GET', url: '/api/changes?index=ours' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ ok: false, error: expect.stringMatching(/^index must be/) });
  });
});

describe('the background filler of compact scores (migration 0012 no longer backfills)', () => {
  it('writes what recording writes, a few rows a statement, a turn of the event loop between', async () => {
    const ids = await allBatchIds();
    // Recording writes a batch's row with its country rows; a batch recorded without rows
    // (the demo's seed has some) gets `{}` from the filler, so it is not looked for again.
    const recorded = await selectBatchScores(store.db, ids);
    expect(recorded.length).toBeGreaterThanOrEqual(3);
    await store.db.execute('delete from batch_scores');

    const loop = countLoopTurns();
    // The turns seen when each statement starts and when it has ended: another callback ran
    // between two statements only if the filler yielded (the store's own awaits do not count).
    const seen: Array<{ rows: number; started: number; ended: number }> = [];
    /** Rows each read of a batch returned, by batch id. */
    const readsOf = new Map<number, number[]>();
    const timed = async <T>(rows: number, statement: () => Promise<T>): Promise<T> => {
      const entry = { rows, started: loop.turns(), ended: -1 };
      seen.push(entry);
      const answer = await statement();
      entry.ended = loop.turns();
      return answer;
    };
    const statements: FillStatements = {
      missing: selectBatchesWithoutScores,
      read: async (db, id, after, limit) => {
        const rows = await timed(limit, () => selectScoreArrays(db, id, after, limit));
        readsOf.set(id, [...(readsOf.get(id) ?? []), rows.length]);
        return rows;
      },
      write: (db, id, scores) => timed(0, () => insertBatchScores(db, id, scores)),
    };
    const fill = new BatchScoresFill({
      db: store.db,
      scheduler: { at: () => () => undefined },
      now: Date.now,
      logger: silentLogger,
      statements,
    });
    expect(await fill.job.request()).toBeNull();
    loop.stop();

    // One insert a batch; no read asks for more rows than the bound; the first asks for
    // FILL_ROWS.first, fewer than a batch's ~168 countries, so that batch takes several reads
    // (not the whole batch in one statement); later reads grow only while they stay quick.
    expect(seen.filter((s) => s.rows === 0).length).toBe(ids.length);
    expect(Math.max(...seen.map((s) => s.rows))).toBeLessThanOrEqual(FILL_ROWS.max);
    expect(seen[0]!.rows).toBe(FILL_ROWS.first);
    const first = [...readsOf.values()].find((reads) => reads.reduce((a, b) => a + b) > 0)!;
    expect(first.length).toBeGreaterThan(1);
    expect(Math.max(...first)).toBeLessThanOrEqual(FILL_ROWS.first * 2);
    for (let i = 1; i < seen.length; i++)
      expect(seen[i]!.started).toBeGreaterThan(seen[i - 1]!.ended);
    const parsed = (rows: typeof recorded) =>
      new Map(rows.map((row) => [row.batchId, JSON.parse(row.text) as unknown]));
    const filled = parsed(await selectBatchScores(store.db, ids));
    expect(filled.size).toBe(ids.length);
    for (const [id, scores] of parsed(recorded)) expect(filled.get(id)).toEqual(scores);
    for (const [id, scores] of filled) if (!parsed(recorded).has(id)) expect(scores).toEqual({});
    expect(await selectBatchesWithoutScores(store.db, 10)).toEqual([]);
  });

  it("sizes each read by the CPU the last one took, not by a busy machine's waits", async () => {
    /** A filler whose every read first does `read` (waits, or works on the thread). */
    const fillWith = (read: () => Promise<void>) => {
      const asked: number[] = [];
      const statements: FillStatements = {
        missing: selectBatchesWithoutScores,
        read: async (db, id, after, limit) => {
          asked.push(limit);
          await read();
          return selectScoreArrays(db, id, after, limit);
        },
        write: async () => undefined,
      };
      const fill = new BatchScoresFill({
        db: store.db,
        scheduler: { at: () => () => undefined },
        now: Date.now,
        logger: silentLogger,
        statements,
      });
      return { fill, asked };
    };
    await store.db.execute('delete from batch_scores');
    // Waiting for a core (or the disk) is not the thread's work: the reads grow.
    const waiting = fillWith(
      () => new Promise((resolve) => setTimeout(resolve, 3 * FILL_STATEMENT_TARGET_MS)),
    );
    await waiting.fill.job.request();
    expect(waiting.asked[0]).toBe(FILL_ROWS.first);
    expect(Math.min(...waiting.asked)).toBe(FILL_ROWS.first);
    expect(Math.max(...waiting.asked)).toBeGreaterThan(FILL_ROWS.first);
    // Work on the thread is: the reads shrink.
    const working = fillWith(async () => {
      const start = process.cpuUsage();
      const spent = () => {
        const used = process.cpuUsage(start);
        return (used.user + used.system) / 1000;
      };
      while (spent() < FILL_STATEMENT_TARGET_MS * 1.2);
    });
    await working.fill.job.request();
    expect(working.asked[0]).toBe(FILL_ROWS.first);
    expect(Math.max(...working.asked)).toBe(FILL_ROWS.first);
    expect(Math.min(...working.asked)).toBeLessThan(FILL_ROWS.first);
  });

  it('sizes each read by how long the last one took', () => {
    const slow = FILL_STATEMENT_TARGET_MS * 3;
    const quick = FILL_STATEMENT_TARGET_MS / 10;
    expect(nextReadRows(40, slow)).toBe(20);
    expect(nextReadRows(40, quick)).toBe(80);
    expect(nextReadRows(40, FILL_STATEMENT_TARGET_MS)).toBe(40);
    expect(nextReadRows(FILL_ROWS.min, slow)).toBe(FILL_ROWS.min);
    expect(nextReadRows(FILL_ROWS.max, quick)).toBe(FILL_ROWS.max);
  });
});
