import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pastBatches } from '../../src/demo-upstream/history-seed.js';
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
 * make; "cold" is the first question after the store was reopened.
 */
export interface AsOfBench {
  batches: number;
  countries: number;
  fillSeconds: number;
  overviewColdMs: number;
  overviewWarmMs: number;
  verifyMs: number;
  verifyHolds: boolean;
  backfillMs: number;
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

const timed = async <T>(work: () => Promise<T>): Promise<[number, T]> => {
  const start = process.hrtime.bigint();
  const value = await work();
  return [Number(process.hrtime.bigint() - start) / 1e6, value];
};

export async function runAsOfBench(): Promise<AsOfBench> {
  const dataDir = mkdtempSync(join(tmpdir(), 'grd-bench-asof-'));
  const options = { dataDir, databaseUrl: null, retentionDays: null };
  try {
    let store = await HistoryStore.open(options);
    const fillStart = Date.now();
    let countries = 0;
    let oldest = '';
    for (const batch of pastBatches(Date.now(), BATCHES)) {
      countries = batch.countries.length;
      oldest ||= batch.asOf;
      await store.recordBatch({
        asOf: new Date(batch.asOf),
        methodologyVersion: batch.methodologyVersion,
        global: batch.global,
        source: 'demo_seed',
        demo: true,
        countries: batch.countries,
      });
    }
    const fillSeconds = (Date.now() - fillStart) / 1000;
    await store.close();

    store = await HistoryStore.open(options);
    // The second batch recorded: "What changed" has a batch before it.
    const at = new Date(Date.parse(oldest) + 12 * 3_600_000);
    const overview = async () => {
      const asOf = new AsOfAnswers(store);
      const history = new HistoryAnswers(store, () => store.coverage());
      await asOf.countries(at);
      await asOf.hotspots(at, { limit: 10, tiers: [], include: [] });
      await history.changes({ kind: 'previous' }, 'previous', undefined, at);
    };
    const [overviewColdMs] = await timed(overview);
    const [overviewWarmMs] = await timed(overview);
    const [verifyMs, verdict] = await timed(() => new BatchChainAnswers(store).verify());
    const isos = (await store.countryRows((await store.batchAtOrBefore(null))?.id ?? 0))
      .map((row) => row.iso)
      .sort()
      .slice(0, 100);
    const backtest = new RuleBacktest(store.db);
    const [backtestColdMs] = await timed(() => backtest.run(isos, RULES));
    const [backtestWarmMs] = await timed(() => backtest.run(isos, RULES));
    await store.close();

    // A store recorded before the chain existed: its ids are computed at start-up.
    const raw = await PGlite.create(join(dataDir, 'history'));
    await raw.query('delete from batch_chain');
    await raw.close();
    const [openMs] = await timed(async () => (store = await HistoryStore.open(options)));
    await store.close();
    return {
      batches: BATCHES,
      countries,
      fillSeconds,
      overviewColdMs,
      overviewWarmMs,
      verifyMs,
      verifyHolds: verdict.holds,
      backfillMs: openMs,
      backtestColdMs,
      backtestWarmMs,
      backtestCountries: isos.length,
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
