import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pastBatches } from '../../src/demo-upstream/history-seed.js';
import { demoSeedRecord } from '../../src/server/compose/demo.js';
import type { AlertRule } from '../../src/shared/alerts-api.js';
import { BatchChainAnswers } from '../../src/server/services/batches/batch-chain-answers.js';
import { RuleBacktest } from '../../src/server/services/alerts/backtest.js';
import { AsOfAnswers } from '../../src/server/services/history/as-of-answers.js';
import { HistoryAnswers } from '../../src/server/services/history/history-answers.js';
import { HistoryStore } from '../../src/server/store/history-store.js';

/**
 * Issue 22 at two years (1,460 batches of every demo country, embedded PGlite on disk): the
 * overview as of the oldest batch (countries, top-10 hotspots and What changed, the three
 * questions the overview asks), the chain's verification and its start-up backfill, and a
 * backtest of 100 countries with four rules. Wall-clock around the service calls the routes
 * make; "cold" is the first question after the store was reopened. `GRD_BENCH_ASOF_STORE=<dir>`
 * copies a store filled by an earlier run from that folder (the fill takes minutes) and, when
 * the folder does not exist yet, keeps this run's filled store there.
 */
export interface AsOfBench {
  batches: number;
  countries: number;
  fillSeconds: number;
  overviewColdMs: number;
  overviewWarmMs: number;
  verifyMs: number;
  verifyHolds: boolean;
  /** Opening a store whose chain was emptied (the backfill runs after, in the background). */
  backfillOpenMs: number;
  /** The background backfill from the open until every batch has its id. */
  backfillMs: number;
  /** The background warm-up of the backtest's numbers (after listening). */
  backtestWarmUpMs: number;
  /** Medians of RUNS repetitions, each on a freshly reopened store (cold) or again (warm). */
  runs: number;
  /** Medians of this process's CPU time, ms, by measure. */
  cpuMedians: Record<string, number>;
  backtestColdMs: number;
  backtestWarmMs: number;
  backtestCountries: number;
}

const BATCHES = 1460;
const RULES: AlertRule[] = [
  { kind: 'active_change', min_abs_delta: 10 },
  { kind: 'tier_change', direction: 'both' },
  { kind: 'risk_threshold', threshold: 60, direction: 'up' },
  { kind: 'breaking_event' },
];

/** CPU time of this process in ms (PGlite's work runs in it): less bent by a busy machine. */
const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const cpuSpent: Record<string, number[]> = {};
const timed = async <T>(work: () => Promise<T>, name = ''): Promise<[number, T]> => {
  const cpu = cpuMs();
  const start = process.hrtime.bigint();
  const value = await work();
  if (name) (cpuSpent[name] ??= []).push(cpuMs() - cpu);
  return [Number(process.hrtime.bigint() - start) / 1e6, value];
};

const RUNS = 5;
const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

export async function runAsOfBench(): Promise<AsOfBench> {
  const dataDir = mkdtempSync(join(tmpdir(), 'grd-bench-asof-'));
  const options = { dataDir, databaseUrl: null, retentionDays: null };
  const kept = process.env.GRD_BENCH_ASOF_STORE ?? null;
  const reuse = kept !== null && existsSync(kept);
  if (reuse) cpSync(kept, dataDir, { recursive: true });
  try {
    let store = await HistoryStore.open(options);
    const fillStart = Date.now();
    let countries = 0;
    let oldest = '';
    for (const batch of reuse ? [] : pastBatches(Date.now(), BATCHES)) {
      countries = batch.countries.length;
      oldest ||= batch.asOf;
      await store.recordBatch(demoSeedRecord(batch));
    }
    const fillSeconds = reuse ? Number.NaN : (Date.now() - fillStart) / 1000;
    await store.close();
    if (kept && !reuse) cpSync(dataDir, kept, { recursive: true });

    const coldOverview: number[] = [];
    const warmOverview: number[] = [];
    const coldBacktest: number[] = [];
    const warmBacktest: number[] = [];
    const warmUp: number[] = [];
    let verifyMs = 0;
    let verifyHolds = false;
    let isos: string[] = [];
    for (let run = 0; run < RUNS; run++) {
      store = await HistoryStore.open(options);
      const coverage = await store.coverage();
      oldest ||= coverage.since ?? '';
      countries ||= (await store.countryRows((await store.batchAtOrBefore(null))?.id ?? 0)).length;
      // The second batch recorded: "What changed" has a batch before it.
      const at = new Date(Date.parse(oldest) + 12 * 3_600_000);
      const asOf = new AsOfAnswers(store);
      const history = new HistoryAnswers(store, () => store.coverage());
      const overview = async () => {
        await asOf.countries(at);
        await asOf.hotspots(at, { limit: 10, tiers: [], include: [] });
        await history.changes({ kind: 'previous' }, 'previous', undefined, at);
      };
      coldOverview.push((await timed(overview, 'overviewCold'))[0]);
      warmOverview.push((await timed(overview, 'overviewWarm'))[0]);
      if (run === 0) {
        const [ms, verdict] = await timed(() => new BatchChainAnswers(store).verify());
        verifyMs = ms;
        verifyHolds = verdict.holds;
      }
      isos = (await store.countryRows((await store.batchAtOrBefore(null))?.id ?? 0))
        .map((row) => row.iso)
        .sort()
        .slice(0, 100);
      coldBacktest.push(
        (await timed(() => new RuleBacktest(store.db).run(isos, RULES), 'backtestCold'))[0],
      );
      // As the server does after listening: the numbers warmed, then the person's backtest.
      const backtest = new RuleBacktest(store.db);
      warmUp.push((await timed(() => backtest.warm(), 'warmUp'))[0]);
      warmBacktest.push((await timed(() => backtest.run(isos, RULES), 'backtestWarm'))[0]);
      await store.close();
    }

    // A store recorded before the chain existed: its ids are computed after the open.
    const raw = await PGlite.create(join(dataDir, 'history'));
    await raw.query('delete from batch_chain');
    await raw.close();
    const openStart = process.hrtime.bigint();
    store = await HistoryStore.open(options);
    const backfillOpenMs = Number(process.hrtime.bigint() - openStart) / 1e6;
    await store.chainBackfillDone();
    const backfillMs = Number(process.hrtime.bigint() - openStart) / 1e6;
    await store.close();
    return {
      batches: BATCHES,
      countries,
      fillSeconds,
      overviewColdMs: median(coldOverview),
      overviewWarmMs: median(warmOverview),
      verifyMs,
      verifyHolds,
      backfillOpenMs,
      backfillMs,
      backtestColdMs: median(coldBacktest),
      backtestWarmUpMs: median(warmUp),
      backtestWarmMs: median(warmBacktest),
      backtestCountries: isos.length,
      runs: RUNS,
      cpuMedians: Object.fromEntries(
        Object.entries(cpuSpent).map(([name, values]) => [name, median(values)]),
      ),
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
