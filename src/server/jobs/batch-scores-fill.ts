import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../store/connection.js';
import {
  countBatchesWithoutScores,
  fillBatchScores,
  selectBatchesWithoutScores,
} from '../store/team-index.js';
import { TimeSlice } from '../work/time-slice.js';
import { JobLoop } from './job-loop.js';
import type { Scheduler } from './scheduler.js';

/**
 * Batches one fill statement writes: each walks its batch's ~168 jsonb category documents
 * (about 3 ms a batch warm on the embedded store, docs/benchmarks.md section 13), and with
 * PGlite the statement runs on this thread, so a few at a time keep other requests moving.
 */
export const FILL_BATCHES_PER_STATEMENT = 1;
/** Batches one run looks up; a run that found this many runs again at once. */
const FILL_BATCHES_PER_RUN = 200;

/** Where the fill reads and writes: what the tests count. */
export interface FillStatements {
  missing(db: Database, limit: number): Promise<number[]>;
  fill(db: Database, batchIds: readonly number[]): Promise<void>;
}

const STORE: FillStatements = { missing: selectBatchesWithoutScores, fill: fillBatchScores };

/**
 * Fills `batch_scores` for batches recorded without it (issue 31): the backfill migration 0012
 * once did in one statement at start-up (10.6 s on a two-year store) runs here in the
 * background, FILL_BATCHES_PER_STATEMENT batches a statement with a turn of the event loop
 * between statements. Until a batch has its row, the team view's changes of it say "computing"
 * (services/team-index/team-changes.ts) rather than give a figure. Every process may run it: a
 * batch written twice keeps its first row (`on conflict do nothing`).
 */
export class BatchScoresFill {
  readonly job: JobLoop;
  #remaining: number | null = null;

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
    for (let at = 0; at < ids.length; at += FILL_BATCHES_PER_STATEMENT) {
      if (at > 0) await slice.yieldNow();
      const chunk = ids.slice(at, at + FILL_BATCHES_PER_STATEMENT);
      await statements.fill(db, chunk);
      this.#remaining = Math.max(0, this.#remaining - chunk.length);
    }
    return ids.length === FILL_BATCHES_PER_RUN ? now() : null;
  }
}
