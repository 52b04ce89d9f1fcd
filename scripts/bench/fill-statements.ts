import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { pastBatches } from '../../src/demo-upstream/history-seed.js';
import { demoSeedRecord } from '../../src/server/compose/demo.js';
import { BatchScoresFill } from '../../src/server/jobs/batch-scores-fill.js';
import { HistoryStore } from '../../src/server/store/history-store.js';
import {
  fillBatchScores,
  insertBatchScores,
  selectBatchesWithoutScores,
  selectScoreArrays,
} from '../../src/server/store/team-index.js';

/*
 * The background filler's statements side by side in one process (issue 31): a whole batch in
 * one statement (fillBatchScores, the filler before) against the filler's reads of a few rows
 * and its one insert, alternating rounds so the machine's load falls on both alike. Every
 * statement is timed (hrtime around the await): median, 95th percentile and the slowest.
 * `GRD_BENCH_TEAM_BATCHES` batches (default 100), `npx tsx scripts/bench/fill-statements.ts`.
 */
const BATCHES = Number(process.env.GRD_BENCH_TEAM_BATCHES ?? 100);
const ROUNDS = 3;
const quantile = (values: number[], q: number): number =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))]!;

const dataDir = mkdtempSync(join(tmpdir(), 'grd-bench-fill-'));
const store = await HistoryStore.open({ dataDir, databaseUrl: null, retentionDays: null });
for (const batch of pastBatches(Date.now(), BATCHES))
  await store.recordBatch(demoSeedRecord(batch));
const db = store.db;
const timed = async <T>(into: number[], statement: () => Promise<T>): Promise<T> => {
  const start = process.hrtime.bigint();
  const answer = await statement();
  into.push(Number(process.hrtime.bigint() - start) / 1e6);
  return answer;
};
const whole: number[] = [];
const rows: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  await db.execute(sql`delete from batch_scores`);
  for (const id of await selectBatchesWithoutScores(db, 10_000)) {
    await timed(whole, () => fillBatchScores(db, [id]));
    await new Promise((resolve) => setImmediate(resolve));
  }
  await db.execute(sql`delete from batch_scores`);
  const fill = new BatchScoresFill({
    statements: {
      missing: selectBatchesWithoutScores,
      read: (on, id, after, limit) => timed(rows, () => selectScoreArrays(on, id, after, limit)),
      write: (on, id, scores) => timed(rows, () => insertBatchScores(on, id, scores)),
    },
    db,
    scheduler: { at: () => () => undefined },
    now: Date.now,
    logger: pino({ level: 'silent' }),
  });
  while ((await fill.job.request()) !== null) {
    // A run of 200 batches asks for the next at once; null when none is left.
  }
}
const line = (name: string, ms: number[]) =>
  `${name}: ${ms.length} statements, median ${quantile(ms, 0.5).toFixed(1)} ms, ` +
  `p95 ${quantile(ms, 0.95).toFixed(1)} ms, slowest ${Math.max(...ms).toFixed(1)} ms`;
console.log(`${BATCHES} batches, ${ROUNDS} alternating rounds`);
console.log(line('whole batch a statement (before)', whole));
console.log(line('a few rows a read + one insert (now)', rows));
await store.close();
rmSync(dataDir, { recursive: true, force: true });
