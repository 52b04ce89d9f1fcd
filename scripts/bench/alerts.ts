import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { pastBatches } from '../../src/demo-upstream/history-seed.js';
import { demoSeedRecord } from '../../src/server/compose/demo.js';
import { AlertEvaluator } from '../../src/server/jobs/alert-evaluator.js';
import { Secret } from '../../src/server/secret.js';
import { watchlists } from '../../src/server/store/alerts-schema.js';
import { HistoryStore } from '../../src/server/store/history-store.js';
import type { AlertRule } from '../../src/shared/alerts-api.js';
import { PERSONAL_WATCHLISTS_MAX } from '../../src/shared/alerts-api.js';

/**
 * Alert evaluation at its limits (issue 18): 2,000 watchlists of 100 countries and 5 rules each
 * (40 people with 50 personal lists each, within the limits), evaluated for one new batch of the
 * demo's data. Time is wall-clock around the evaluation (and this process's CPU time, which other
 * load on the machine hardly moves); extra memory is the peak RSS (and heap)
 * above what the process held just before, sampled every 20 ms.
 */
export interface AlertBench {
  store: 'PGlite (disk)' | 'PostgreSQL';
  lists: number;
  countriesPerList: number;
  rulesPerList: number;
  alerts: number;
  seconds: number;
  /** This process's CPU time over the evaluation (PGlite runs in it; PostgreSQL does not). */
  cpuSeconds: number;
  extraRssMb: number;
  extraHeapMb: number;
}

const LISTS = 2_000;
const COUNTRIES = 100;
const RULES: AlertRule[] = [
  { kind: 'active_change', min_abs_delta: 1 },
  { kind: 'active_change', min_abs_delta: 5 },
  { kind: 'tier_change', direction: 'both' },
  { kind: 'risk_threshold', threshold: 50, direction: 'both' },
  { kind: 'breaking_event' },
];

export async function runAlertBench(databaseUrl: string | null): Promise<AlertBench> {
  const dataDir = databaseUrl ? null : mkdtempSync(join(tmpdir(), 'grd-bench-alerts-'));
  const store = await HistoryStore.open({
    dataDir,
    databaseUrl: databaseUrl ? new Secret(databaseUrl) : null,
    retentionDays: null,
  });
  try {
    const [first, second] = [...pastBatches(Date.now(), 2)];
    if (!first || !second) throw new Error('no demo batches');
    const evaluator = new AlertEvaluator({
      db: store.db,
      now: () => Date.now(),
      logger: pino({ level: 'warn' }),
      linkBase: null,
      emailEnabled: false,
    });
    await store.recordBatch(demoSeedRecord(first));
    await evaluator.evaluatePending();
    // 2,000 lists, each 100 countries (a different window of the batch's countries) and 5 rules.
    const isos = first.countries.map((c) => c.iso);
    const lists = Array.from({ length: LISTS }, (_, i) => ({
      name: `List ${i + 1}`,
      countries: Array.from({ length: COUNTRIES }, (_, k) => isos[(i + k) % isos.length]!),
      rules: RULES,
      owner: `person-${Math.floor(i / PERSONAL_WATCHLISTS_MAX)}`,
    }));
    for (let i = 0; i < lists.length; i += 200) {
      await store.db.insert(watchlists).values(lists.slice(i, i + 200));
    }
    await store.recordBatch(demoSeedRecord(second));

    const baseline = process.memoryUsage();
    let peakRss = baseline.rss;
    let peakHeap = baseline.heapUsed;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peakRss = Math.max(peakRss, now.rss);
      peakHeap = Math.max(peakHeap, now.heapUsed);
    }, 20);
    const started = process.hrtime.bigint();
    const cpu = process.cpuUsage();
    const alerts = await evaluator.evaluatePending();
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const used = process.cpuUsage(cpu);
    clearInterval(sampler);
    const end = process.memoryUsage();
    return {
      store: databaseUrl ? 'PostgreSQL' : 'PGlite (disk)',
      lists: LISTS,
      countriesPerList: COUNTRIES,
      rulesPerList: RULES.length,
      alerts,
      seconds,
      cpuSeconds: (used.user + used.system) / 1e6,
      extraRssMb: (Math.max(peakRss, end.rss) - baseline.rss) / 1e6,
      extraHeapMb: (Math.max(peakHeap, end.heapUsed) - baseline.heapUsed) / 1e6,
    };
  } finally {
    await store.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}
