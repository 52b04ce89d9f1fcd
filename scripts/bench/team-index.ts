import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { pastBatches } from '../../src/demo-upstream/history-seed.js';
import { demoSeedRecord } from '../../src/server/compose/demo.js';
import { AsOfAnswers } from '../../src/server/services/history/as-of-answers.js';
import { HistoryAnswers } from '../../src/server/services/history/history-answers.js';
import { Overrides } from '../../src/server/services/team-index/overrides.js';
import {
  teamIndexOverHistory,
  type TeamHistoryReads,
} from '../../src/server/services/team-index/team-history.js';
import {
  teamCountries,
  teamHotspots,
  TeamView,
  type TeamLens,
} from '../../src/server/services/team-index/team-view.js';
import { teamAsOf } from '../../src/server/routes/team-reply.js';
import { TeamWeights } from '../../src/server/services/team-index/team-weights.js';
import { HistoryStore } from '../../src/server/store/history-store.js';
import { selectBatchRefs } from '../../src/server/store/alerts.js';
import {
  insertBatchScores,
  selectBatchesWithoutScores,
  selectScoreArrays,
  selectBatchScores,
  selectBatchScoresAt,
  selectTeamIndexes,
} from '../../src/server/store/team-index.js';
import { BatchScoresFill } from '../../src/server/jobs/batch-scores-fill.js';
import { heldScores, teamChanges } from '../../src/server/services/team-index/team-changes.js';
import { serveAnswer, whileClientAsks, type Stalls } from './team-index-probe.js';
import { weightsOf } from '../../src/shared/team-index-api.js';

/**
 * Issue 31 at two years (1,460 batches of every demo country, embedded PGlite on disk): the team
 * index over the whole history after a weight change (wall time, and the longest the event loop
 * was held meanwhile, from node's event-loop delay monitor at 1 ms resolution), and the overview
 * as of a batch (countries, top-10 hotspots, What changed) with the team index against the
 * provider's view (medians of RUNS, warm). `GRD_BENCH_ASOF_STORE=<dir>` reuses a filled store
 * as scripts/bench/as-of.ts does.
 */
export interface TeamIndexBench {
  batches: number;
  countries: number;
  points: number;
  fillSeconds: number;
  recomputeMs: number[];
  /** Stalls while the three recomputes ran and a client asked for the overview meanwhile. */
  recomputeStalls: Stalls;
  /** The slowest single store statement of the recomputes. */
  slowestStatementMs: number;
  /** The longest one overview answer took on the server meanwhile. */
  recomputeAnswerMs: number;
  /** The slowest fill statement, and the longest overview answer meanwhile. */
  slowestFillMs: number;
  fillAnswerMs: number;
  /** Every batch's compact scores written again by the background filler (migration 0012's old backfill). */
  scoresFill: Stalls;
  overviewProviderMs: number;
  overviewTeamMs: number;
  /** Rounds of the overview, alternating provider and team. */
  rounds: number;
}

const BATCHES = Number(process.env.GRD_BENCH_TEAM_BATCHES ?? 1460);
const RUNS = 21;
const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const ms = async (work: () => Promise<unknown>): Promise<number> => {
  const start = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - start) / 1e6;
};
const WEIGHTS = [
  { security: 2, economic: 1, infrastructure: 3 },
  { cyber: 5, health: 1 },
  { political: 1, civil_unrest: 1, crime: 1, regulatory: 4, advisory: 2 },
].map(weightsOf);

export async function runTeamIndexBench(): Promise<TeamIndexBench> {
  const dataDir = mkdtempSync(join(tmpdir(), 'grd-bench-team-'));
  const options = { dataDir, databaseUrl: null, retentionDays: null };
  const kept = process.env.GRD_BENCH_ASOF_STORE ?? null;
  const reuse = kept !== null && existsSync(kept);
  if (reuse) cpSync(kept, dataDir, { recursive: true });
  try {
    const store = await HistoryStore.open(options);
    const fillStart = Date.now();
    for (const batch of reuse ? [] : pastBatches(Date.now(), BATCHES)) {
      await store.recordBatch(demoSeedRecord(batch));
    }
    const fillSeconds = reuse ? Number.NaN : (Date.now() - fillStart) / 1000;
    if (kept && !reuse) cpSync(dataDir, kept, { recursive: true });
    const db = store.db;
    const weights = new TeamWeights(db, Date.now);
    await weights.put({ name: 'Bench', weights: WEIGHTS[0] }, '"0"', 'bench');

    const ids = (await selectBatchRefs(db)).map((ref) => ref.id);
    const recomputeMs: number[] = [];
    let points = 0;
    let slowestStatementMs = 0;
    const timed = async <T>(read: () => Promise<T>): Promise<T> => {
      const start = process.hrtime.bigint();
      const answer = await read();
      slowestStatementMs = Math.max(
        slowestStatementMs,
        Number(process.hrtime.bigint() - start) / 1e6,
      );
      return answer;
    };
    const reads: TeamHistoryReads = {
      compact: (on, chunk) => timed(() => selectBatchScores(on, chunk)),
      rows: (on, chunk, set, isos) => timed(() => selectTeamIndexes(on, chunk, set, isos)),
    };
    const coverage = await store.coverage();
    const at = new Date(Date.parse(coverage.since ?? '') + 12 * 3_600_000);
    const asOf = new AsOfAnswers(store);
    const history = new HistoryAnswers(store, () => store.coverage());
    const scores = {
      at: heldScores((times) => selectBatchScoresAt(db, times)),
      left: () => 0,
    };
    const team = new TeamView(weights, new Overrides(db, Date.now), scores);
    const query = { limit: 10, tiers: [], include: [] };
    // The overview's three questions as the routes answer them (as of a batch).
    const provider = async () =>
      JSON.stringify([
        await asOf.countries(at),
        await asOf.hotspots(at, query),
        await history.changes({ kind: 'previous' }, 'previous', undefined, at),
      ]);
    // The same three in the team view, as the routes build them (held per batch, weights and
    // overrides: routes/team-reply.ts), What changed from the compact scores.
    const hotspotsOf = (body: never, lens: TeamLens) => teamHotspots(body, lens, query);
    const teamView = async () => {
      const lens = await team.at(at, 'then');
      return JSON.stringify([
        await teamAsOf(team, await asOf.countries(at), 'then', teamCountries, 'countries'),
        await teamAsOf(team, await asOf.countries(at), 'then', hotspotsOf, 'hotspots:top10'),
        await teamChanges(
          await history.changes({ kind: 'previous' }, 'previous', undefined, at),
          lens,
          scores,
        ),
      ]);
    };
    const served = await serveAnswer(provider);
    await provider(); // warm, as the overview is after its first question

    served.slowestAnswerMs();
    const recomputeStalls = await whileClientAsks(served.url, async () => {
      for (const set of WEIGHTS) {
        recomputeMs.push(
          await ms(async () => {
            const all = await teamIndexOverHistory(db, ids, set, null, reads);
            points = [...all.values()].reduce((n, batch) => n + batch.size, 0);
          }),
        );
      }
    });

    const recomputeAnswerMs = served.slowestAnswerMs();
    // Migration 0012's backfill, now the background filler's: every batch's row written again.
    await db.execute(sql`delete from batch_scores`);
    let slowestFillMs = 0;
    // Every statement of the filler timed, its reads and its inserts alike.
    const timedFill = async <T>(statement: () => Promise<T>): Promise<T> => {
      const start = process.hrtime.bigint();
      const answer = await statement();
      slowestFillMs = Math.max(slowestFillMs, Number(process.hrtime.bigint() - start) / 1e6);
      return answer;
    };
    const fill = new BatchScoresFill({
      statements: {
        missing: selectBatchesWithoutScores,
        read: (on, id, after, limit) => timedFill(() => selectScoreArrays(on, id, after, limit)),
        write: (on, id, scores) => timedFill(() => insertBatchScores(on, id, scores)),
      },
      db,
      scheduler: { at: () => () => undefined },
      now: Date.now,
      logger: pino({ level: 'silent' }),
    });
    const scoresFill = await whileClientAsks(served.url, async () => {
      while ((await fill.job.request()) !== null) {
        // A run of 200 batches asks for the next at once; null when none is left.
      }
    });
    const fillAnswerMs = served.slowestAnswerMs();
    await served.close();

    await provider();
    await teamView();
    const providerRuns: number[] = [];
    const teamRuns: number[] = [];
    // Alternating rounds, so a change of the machine's load falls on both alike.
    for (let run = 0; run < RUNS; run++) {
      if (run % 2 === 0) {
        providerRuns.push(await ms(provider));
        teamRuns.push(await ms(teamView));
      } else {
        teamRuns.push(await ms(teamView));
        providerRuns.push(await ms(provider));
      }
    }
    const countries = (await store.countryRows(ids.at(-1) ?? 0)).length;
    await store.close();
    return {
      batches: ids.length,
      countries,
      points,
      fillSeconds,
      recomputeMs,
      recomputeStalls,
      slowestStatementMs,
      recomputeAnswerMs,
      scoresFill,
      slowestFillMs,
      fillAnswerMs,
      overviewProviderMs: median(providerRuns),
      overviewTeamMs: median(teamRuns),
      rounds: RUNS,
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
