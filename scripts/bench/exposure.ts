import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pastBatches } from '../../src/demo-upstream/history-seed.js';
import { demoSeedRecord } from '../../src/server/compose/demo.js';
import { ExposureService } from '../../src/server/services/sites/exposure.js';
import { csvRows } from '../../src/server/services/sites/import-rows.js';
import { SiteService } from '../../src/server/services/sites/site-service.js';
import { HistoryStore } from '../../src/server/store/history-store.js';
import { sitesCsv } from './sites.js';

/**
 * /api/exposure at its limits (issue 20): 20,000 sites (section 10's CSV) over two years of demo
 * batches (1,460), PGlite on disk as `npm start` runs it. "Cold" is a store closed and opened
 * again with new services (a fresh process's memos); each phase is timed alone, wall clock and
 * this process's CPU (PGlite runs in it): reading the 20,000 sites, then the answer whose sites
 * are in hand but whose risk history is not (the exposure index over two years, cold), then the
 * same answer warm (median of 20). `GRD_BENCH_EXPOSURE_STORE=<dir>` copies a store filled (and its
 * sites imported) by an earlier run from that folder, and keeps this run's there when the folder
 * does not exist yet: the fill takes minutes.
 */
export interface ExposureBench {
  batches: number;
  sites: number;
  fillSeconds: number;
  sitesReadMs: number;
  sitesReadCpuMs: number;
  indexColdMs: number;
  indexColdCpuMs: number;
  allColdMs: number;
  warmMedianMs: number;
  warmMaxMs: number;
  trendPoints: number;
}

const BATCHES = 1460;
const filters = { tiers: [], countries: [], kinds: [], tag: null };

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; cpuMs: number; value: T }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const value = await work();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - start, cpuMs: (used.user + used.system) / 1000, value };
}

export async function runExposureBench(batches = BATCHES): Promise<ExposureBench> {
  const dataDir = mkdtempSync(join(tmpdir(), 'grd-bench-exposure-'));
  const options = { dataDir, databaseUrl: null, retentionDays: null };
  const kept = process.env.GRD_BENCH_EXPOSURE_STORE ?? null;
  const reuse = kept !== null && existsSync(kept);
  if (reuse) cpSync(kept, dataDir, { recursive: true });
  let store = await HistoryStore.open(options);
  try {
    const fillStart = performance.now();
    for (const batch of reuse ? [] : pastBatches(Date.now(), batches)) {
      await store.recordBatch(demoSeedRecord(batch));
    }
    const fillSeconds = reuse ? Number.NaN : (performance.now() - fillStart) / 1000;
    if (!reuse) {
      const imported = await new SiteService({ store }).import(csvRows(sitesCsv()), false);
      if (imported.total < 20_000) throw new Error(`${imported.total} sites imported`);
    }
    await store.close();
    if (kept && !reuse) cpSync(dataDir, kept, { recursive: true });

    // Cold, phase by phase: the sites, then the index over the whole history.
    store = await HistoryStore.open(options);
    let sites = new SiteService({ store });
    void sites.placer.shapes;
    const read = await timed(() => sites.all());
    let exposure = new ExposureService(sites, store);
    const index = await timed(() => exposure.answer(filters, 'people'));
    const warm: number[] = [];
    for (let i = 0; i < 20; i += 1)
      warm.push((await timed(() => exposure.answer(filters, 'people'))).ms);
    warm.sort((a, b) => a - b);
    await store.close();

    // Cold as one question: what the first /api/exposure after a start waits for.
    store = await HistoryStore.open(options);
    sites = new SiteService({ store });
    exposure = new ExposureService(sites, store);
    const all = await timed(() => exposure.answer(filters, 'people'));
    return {
      batches,
      sites: index.value.sites,
      fillSeconds,
      sitesReadMs: read.ms,
      sitesReadCpuMs: read.cpuMs,
      indexColdMs: index.ms,
      indexColdCpuMs: index.cpuMs,
      allColdMs: all.ms,
      warmMedianMs: warm[10] ?? NaN,
      warmMaxMs: warm.at(-1) ?? NaN,
      trendPoints: index.value.index.trend.length,
    };
  } finally {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// `node --import tsx scripts/bench/exposure.ts [batches]`: this section alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  const run = await runExposureBench(Number(process.argv[2] ?? BATCHES));
  process.stdout.write(`${JSON.stringify(run, null, 2)}\n`);
}
