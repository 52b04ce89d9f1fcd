import type { FastifyBaseLogger } from 'fastify';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import type { Database } from '../store/connection.js';
import {
  countBatchesWithoutScores,
  insertBatchScores,
  selectBatchesWithoutScores,
  selectScoreArrays,
} from '../store/team-index.js';
import { TimeSlice } from '../work/time-slice.js';
import { JobLoop } from './job-loop.js';
import type { Scheduler } from './scheduler.js';

/** Batches one run looks up; a run that found this many runs again at once. */
const FILL_BATCHES_PER_RUN = 200;

/**
 * Country rows one read takes, and the bounds the measured time moves it between: with PGlite a
 * statement runs on this thread, and a whole batch (~168 rows of jsonb categories) in one took
 * up to 168 ms at load 8 against the 50 ms bound (issue 31).
 */
export const FILL_ROWS = { first: 40, min: 5, max: 200 } as const;
/**
 * Each read aims at this much of this thread's time: halved above it, doubled well under it.
 * Not wall time: on a busy machine a statement's wall time is mostly waiting for a core (a 2 ms
 * read took 100 ms and more at load 9), and sizing by it shrank every read to FILL_ROWS.min,
 * which made the fill 50 times longer at load 20 (1,011 s for two years) without holding the
 * loop any less. See `threadMsSince` for how it is measured.
 */
export const FILL_STATEMENT_TARGET_MS = 10;

/** Where a read's measure starts: the process's CPU and the event loop's busy time. */
interface ThreadMark {
  cpu: NodeJS.CpuUsage;
  loop: EventLoopUtilization;
}

function threadMark(): ThreadMark {
  return { cpu: process.cpuUsage(), loop: performance.eventLoopUtilization() };
}

/**
 * How long the event loop's thread worked since `since`, in ms: the smaller of the process's CPU
 * time and the loop's active time. Either alone misleads: the process's CPU counts its other
 * threads too (V8 compiling PGlite's WebAssembly and collecting garbage in the background: a read
 * that only waited measured over 10 ms, and the test of that failed one run in three); the
 * loop's active time counts a busy machine's preemption as work. Work on the thread is in both.
 */
export function threadMsSince(since: ThreadMark): number {
  const used = process.cpuUsage(since.cpu);
  const cpuMs = (used.user + used.system) / 1000;
  return Math.min(cpuMs, performance.eventLoopUtilization(since.loop).active);
}

/** The next read's rows from how long the last one took (`rows` rows in `tookMs`). */
export function nextReadRows(rows: number, tookMs: number): number {
  const next =
    tookMs > FILL_STATEMENT_TARGET_MS
      ? Math.floor(rows / 2)
      : tookMs < FILL_STATEMENT_TARGET_MS / 4
        ? rows * 2
        : rows;
  return Math.min(FILL_ROWS.max, Math.max(FILL_ROWS.min, next));
}

/** Where the fill reads and writes: what the tests count. */
export interface FillStatements {
  missing(db: Database, limit: number): Promise<number[]>;
  read: typeof selectScoreArrays;
  write: typeof insertBatchScores;
}

const STORE: FillStatements = {
  missing: selectBatchesWithoutScores,
  read: selectScoreArrays,
  write: insertBatchScores,
};

/**
 * Fills `batch_scores` for batches recorded without it (issue 31): the backfill migration 0012
 * once did in one statement at start-up (10.6 s on a two-year store) runs here in the
 * background. Each batch is read a few country rows a statement (as many as the last read's
 * thread time says fit FILL_STATEMENT_TARGET_MS: PGlite runs on this thread, so that is what a
 * statement holds the event loop for), put together here and written in one small insert,
 * with a turn of the event loop between statements. Until a batch has its row, the team view's
 * changes of it say "computing" (services/team-index/team-changes.ts) rather than give a figure.
 * Every process may run it: a batch written twice keeps its first row (`on conflict do nothing`).
 */
export class BatchScoresFill {
  readonly job: JobLoop;
  #remaining: number | null = null;
  #rows: number = FILL_ROWS.first;

  constructor(
    private readonly parts: {
      db: Database;
      scheduler: Scheduler;
      now: () => number;
      logger: FastifyBaseLogger;
      statements?: FillStatements;
    },
  ) {
    this.job = new JobLoop({
      name: 'batch scores fill',
      logger: parts.logger,
      scheduler: parts.scheduler,
      now: parts.now,
      run: () => this.#run(),
    });
  }

  /** Batches still without their compact scores, as last counted (null: not counted yet). */
  get remaining(): number | null {
    return this.#remaining;
  }

  async #run(): Promise<number | null> {
    const { db, now } = this.parts;
    const statements = this.parts.statements ?? STORE;
    this.#remaining = await countBatchesWithoutScores(db);
    if (this.#remaining === 0) return null;
    const ids = await statements.missing(db, FILL_BATCHES_PER_RUN);
    const slice = new TimeSlice();
    for (const id of ids) {
      await this.#fillOne(id, statements, slice);
      this.#remaining = Math.max(0, this.#remaining - 1);
    }
    return ids.length === FILL_BATCHES_PER_RUN ? now() : null;
  }

  /** One batch: its rows a few a read, a turn between statements, then its one insert. */
  async #fillOne(id: number, statements: FillStatements, slice: TimeSlice): Promise<void> {
    const scores: Record<string, Array<number | null>> = {};
    let after = '';
    for (;;) {
      await slice.yieldNow();
      const asked = this.#rows;
      const started = threadMark();
      const rows = await statements.read(this.parts.db, id, after, asked);
      const took = threadMsSince(started);
      // A short read (the batch's last rows) tells nothing about a fuller one: only slowness counts.
      if (rows.length === asked || took > FILL_STATEMENT_TARGET_MS) {
        this.#rows = nextReadRows(asked, took);
      }
      for (const row of rows) scores[row.iso] = row.scores;
      if (rows.length < asked) break;
      after = rows.at(-1)!.iso;
    }
    await slice.yieldNow();
    await statements.write(this.parts.db, id, scores);
  }
}
