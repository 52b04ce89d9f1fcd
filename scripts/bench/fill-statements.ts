import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
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
 * statement is timed (hrtime around the await): median, 95th percentile and the slowest; and
 * its CPU time (process.cpuUsage around the await: PGlite runs in this thread, so this is what
 * the statement holds the event loop for, without the waits for a core that a busy machine adds
 * to the wall time; it also counts V8's helper threads, so it errs high).
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
interface Times {
  wall: number[];
  cpu: number[];
}
const timed = async <T>(into: Times, statement: () => Promise<T>): Promise<T> => {
  const start = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const answer = await statement();
  const used = process.cpuUsage(cpu);
  into.wall.push(Number(process.hrtime.bigint() - start) / 1e6);
  into.cpu.push((used.user + used.system) / 1e3);
  return answer;
};
const whole: Times = { wall: [], cpu: [] };
const rows: Times = { wall: [], cpu: [] };
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
const figures = (ms: number[]) =>
  `median ${quantile(ms, 0.5).toFixed(1)} ms, p95 ${quantile(ms, 0.95).toFixed(1)} ms, ` +
  `slowest ${Math.max(...ms).toFixed(1)} ms`;
const line = (name: string, times: Times) =>
  `${name}: ${times.wall.length} statements\n  wall ${figures(times.wall)}\n  CPU  ${figures(times.cpu)}`;
console.log(
  `${BATCHES} batches, ${ROUNDS} alternating rounds, load average ${loadavg()[0]!.toFixed(1)}`,
);
console.log(line('whole batch a statement (before)', whole));
console.log(line('a few rows a read + one insert (now)', rows));
console.log(`load average at the end ${loadavg()[0]!.toFixed(1)}`);
await store.close();
rmSync(dataDir, { recursive: true, force: true });
