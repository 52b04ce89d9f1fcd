import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pastBatches } from '../../src/demo-upstream/history-seed.js';
import { demoSeedRecord } from '../../src/server/compose/demo.js';
import { HistoryAnswers } from '../../src/server/services/history/history-answers.js';
import { HistoryStore } from '../../src/server/store/history-store.js';

/**
 * The history store at two years: 1,460 batches (03:00 and 10:00 UTC) of every demo country with
 * its ten categories, in the embedded store (PGlite on disk, as `npm start` uses it). Times are
 * wall-clock around single calls, after the store was closed and reopened ("cold": a new
 * process's store and an empty answer memo); "memo" is the same question asked again.
 */
export interface HistoryBench {
  batches: number;
  countries: number;
  fillSeconds: number;
  recordMs: number[];
  /** Recording the first batch of a month in the second year: it also seals the month before. */
  sealingRecordMs: number[];
  countryColdMs: number;
  countryMemoMs: number;
  /** Another country, its answer not memoised, the database already warm. */
  countryWarmMs: number;
  countryPoints: number;
  changesColdMs: number;
  changesMemoMs: number;
  changesCountries: number;
  /** The data directory per year (tables, indexes and write-ahead log, as on disk). */
  bytesPerYear: number;
  /** Tables and indexes only (pg_database_size), per year. */
  tableBytesPerYear: number;
}

const BATCHES = 1460;
const DAY_MS = 86_400_000;

const timed = async <T>(work: () => Promise<T>): Promise<[number, T]> => {
  const start = process.hrtime.bigint();
  const value = await work();
  return [Number(process.hrtime.bigint() - start) / 1e6, value];
};

function sizeOf(dir: string): number {
  return Number(execFileSync('du', ['-sb', dir], { encoding: 'utf8' }).split('\t')[0]);
}

export async function runHistoryBench(): Promise<HistoryBench> {
  const dataDir = mkdtempSync(join(tmpdir(), 'grd-bench-history-'));
  const options = { dataDir, databaseUrl: null, retentionDays: null };
  try {
    let store = await HistoryStore.open(options);
    const now = Date.now();
    const fillStart = Date.now();
    let countries = 0;
    const recordMs: number[] = [];
    const sealingRecordMs: number[] = [];
    let n = 0;
    let month = '';
    for (const batch of pastBatches(now, BATCHES)) {
      countries = batch.countries.length;
      const [ms] = await timed(() => store.recordBatch(demoSeedRecord(batch)));
      // The last five: recording a batch into a two-year store. A batch opening a month (in the
      // second year) is reported on its own: its recording seals the month before.
      if (n >= BATCHES - 5) recordMs.push(ms);
      if (batch.asOf.slice(0, 7) !== month && n >= BATCHES / 2) sealingRecordMs.push(ms);
      month = batch.asOf.slice(0, 7);
      n += 1;
    }
    const fillSeconds = (Date.now() - fillStart) / 1000;
    await store.close();
    const years = BATCHES / 730;
    const bytesPerYear = sizeOf(join(dataDir, 'history')) / years;
    const raw = await PGlite.create(join(dataDir, 'history'));
    const size = await raw.query<{ n: string }>('select pg_database_size(current_database()) as n');
    await raw.close();
    const tableBytesPerYear = Number(size.rows[0]?.n ?? 0) / years;

    store = await HistoryStore.open(options);
    let answers = new HistoryAnswers(store, () => store.coverage());
    const all = { from: null, to: null };
    const [countryColdMs, series] = await timed(() => answers.countryHistory('SDN', all));
    const [countryMemoMs] = await timed(() => answers.countryHistory('SDN', all));
    const [countryWarmMs] = await timed(() => answers.countryHistory('SOM', all));
    answers = new HistoryAnswers(store, () => store.coverage());
    const week = { kind: 'span' as const, ms: 7 * DAY_MS };
    const [changesColdMs, changes] = await timed(() => answers.changes(week, '7d'));
    const [changesMemoMs] = await timed(() => answers.changes(week, '7d'));
    await store.close();
    return {
      batches: BATCHES,
      countries,
      fillSeconds,
      recordMs,
      sealingRecordMs,
      countryColdMs,
      countryMemoMs,
      countryWarmMs,
      countryPoints: series.points.length,
      changesColdMs,
      changesMemoMs,
      changesCountries: changes.countries.length,
      bytesPerYear,
      tableBytesPerYear,
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
