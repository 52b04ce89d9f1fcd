import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { pastBatches } from '../../src/demo-upstream/history-seed.js';
import { demoSeedRecord } from '../../src/server/compose/demo.js';
import { SiteAlertEvaluator } from '../../src/server/jobs/site-alert-evaluator.js';
import { ExposureService } from '../../src/server/services/sites/exposure.js';
import { csvRows } from '../../src/server/services/sites/import-rows.js';
import { SiteService } from '../../src/server/services/sites/site-service.js';
import { HistoryStore } from '../../src/server/store/history-store.js';
import { SITES_MAX } from '../../src/shared/sites-api.js';

/**
 * Sites at their limit (issue 20), on the embedded store on disk with the demo seed's 90 days of
 * batches (180): importing a 20,000-row CSV (parse, validate, place every site against the
 * 1:50m shapes, one transaction), then /api/exposure's answer over those 20,000 sites: cold (the
 * first question reads the risk history of the sites' countries) and warm (median of 20), then
 * the site rule over the newest batch (every site on, the default rule). Times
 * are the service's (what the route awaits), wall-clock; the shapes are loaded before timing.
 */
export interface SitesBench {
  batches: number;
  sites: number;
  importSeconds: number;
  importCpuSeconds: number;
  reimportSeconds: number;
  exposureColdMs: number;
  exposureWarmMs: number;
  trendPoints: number;
  /** The site rule over the newest batch, every site on with the default rule. */
  siteRuleMs: number;
  siteRuleCpuSeconds: number;
  siteRuleAlerts: number;
}

const CITIES: Array<[number, number]> = [
  [52.23, 21.01],
  [48.85, 2.35],
  [40.71, -74.0],
  [35.68, 139.69],
  [-23.55, -46.63],
  [28.61, 77.2],
  [6.52, 3.38],
  [-33.87, 151.21],
  [55.75, 37.62],
  [1.29, 103.85],
  [30.04, 31.24],
  [19.43, -99.13],
  [-1.29, 36.82],
  [41.01, 28.98],
  [24.71, 46.68],
  [31.23, 121.47],
  [-26.2, 28.05],
  [4.71, -74.07],
  [50.45, 30.52],
  [33.89, 35.5],
];

/** 20,000 rows near 20 cities (within about 20 km), a fixed pseudo-random walk. */
export function sitesCsv(): Buffer {
  let seed = 7;
  const random = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const kinds = ['office', 'plant', 'warehouse', 'project', 'residence'];
  const lines = ['ref,name,kind,latitude,longitude,headcount,value,currency,tags'];
  for (let i = 0; i < SITES_MAX; i += 1) {
    const [lat, lng] = CITIES[i % CITIES.length]!;
    const rLat = (lat + (random() - 0.5) * 0.3).toFixed(4);
    const rLng = (lng + (random() - 0.5) * 0.3).toFixed(4);
    const people = Math.floor(random() * 500);
    lines.push(
      `S-${i},Site ${i},${kinds[i % kinds.length]},${rLat},${rLng},${people},${people * 1000},EUR,bench`,
    );
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

export async function runSitesBench(): Promise<SitesBench> {
  const dataDir = mkdtempSync(join(tmpdir(), 'grd-bench-sites-'));
  const store = await HistoryStore.open({ dataDir, databaseUrl: null, retentionDays: null });
  try {
    const batches = [...pastBatches(Date.now(), 180)];
    for (const batch of batches) {
      await store.recordBatch(demoSeedRecord(batch));
    }
    const sites = new SiteService({ store });
    const exposure = new ExposureService(sites, store);
    void sites.placer.shapes;
    const body = sitesCsv();

    let started = performance.now();
    const cpu = process.cpuUsage();
    const imported = await sites.import(csvRows(body), false);
    const importSeconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    if (imported.created.length !== SITES_MAX) {
      throw new Error(`imported ${imported.created.length}, rejected ${imported.rejected.length}`);
    }
    started = performance.now();
    await sites.import(csvRows(body), false);
    const reimportSeconds = (performance.now() - started) / 1000;

    const filters = { tiers: [], countries: [], kinds: [], tag: null };
    started = performance.now();
    const cold = await exposure.answer(filters, 'people');
    const exposureColdMs = performance.now() - started;
    const warm: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      started = performance.now();
      await exposure.answer(filters, 'people');
      warm.push(performance.now() - started);
    }
    warm.sort((a, b) => a - b);

    // The site rule's step for the newest batch: 20,000 sites' nearby lists against its moves.
    const [newest] = await store.latestBatches(1);
    if (!newest) throw new Error('no batch recorded');
    const rule = new SiteAlertEvaluator({
      db: store.db,
      now: () => newest.asOf.getTime(),
      logger: pino({ level: 'warn' }),
      linkBase: null,
      emailEnabled: false,
    });
    started = performance.now();
    const ruleCpu = process.cpuUsage();
    const siteRuleAlerts = await rule.evaluateBatch({ id: newest.id, asOf: newest.asOf });
    const siteRuleMs = performance.now() - started;
    const ruleUsed = process.cpuUsage(ruleCpu);
    return {
      batches: batches.length,
      sites: cold.sites,
      importSeconds,
      importCpuSeconds: (used.user + used.system) / 1e6,
      reimportSeconds,
      exposureColdMs,
      exposureWarmMs: warm[10] ?? NaN,
      trendPoints: cold.index.trend.length,
      siteRuleMs,
      siteRuleCpuSeconds: (ruleUsed.user + ruleUsed.system) / 1e6,
      siteRuleAlerts,
    };
  } finally {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
