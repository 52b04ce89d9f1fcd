import { startBuiltMain } from './built-main.js';
import { watchCpuStretches } from './cpu-stretches.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { pastBatches } from '../../src/demo-upstream/history-seed.js';
import { demoSeedRecord } from '../../src/server/compose/demo.js';
import { AlertEvaluator } from '../../src/server/jobs/alert-evaluator.js';
import { watchlists } from '../../src/server/store/alerts-schema.js';
import { HistoryStore } from '../../src/server/store/history-store.js';
import type { AlertRule } from '../../src/shared/alerts-api.js';
import { percentile } from './flood.js';

// Issue 29: one client does the heaviest legal thing on each heavy route of a built BFF
// (`node dist/node/server/main.js`, demo mode, production defaults, after its 90-day seed) while
// another client reads a cached page (/api/v1/hotspots) every 50 ms; reported: the victim's p99
// and the BFF's event-loop delay p99 over the scenario (grd_event_loop_delay_seconds, read from
// /metrics, which resets it at each scrape). The largest legal evaluation runs in this process
// (a new batch cannot be made to arrive in the demo on demand): 500 lists × 42 countries × 20
// rules, with the victim a 50 ms timer whose lateness is measured. Targets: victim p99 <= 100 ms,
// loop delay p99 <= 50 ms.

const VICTIM_PATH = '/api/v1/hotspots';
const VICTIM_EVERY_MS = 50;
/** Each scenario runs at least this long, so the victim has enough samples. */
const MIN_SCENARIO_MS = 3_000;

export interface HeavyScenario {
  name: string;
  /** What the heavy client's requests answered (status: count), and how long the first took. */
  answers: Record<string, number>;
  heavyMs: number;
  victim: { requests: number; p50: number; p99: number; max: number };
  loop: { p50: number; p99: number; max: number };
  /**
   * In-process scenarios only: the most CPU spent between two turns of the event loop (ms), the
   * longest stretches first; unlike the loop delay, it hardly moves with the machine's load.
   */
  cpuStretches?: number[];
}

export interface HeavyRoutesResult {
  readySeconds: number;
  /** /readyz answers seen before 200 while the seed ran (503 with its reason). */
  notReadyAnswers: number;
  scenarios: HeavyScenario[];
}

/** Reads and resets the BFF's event-loop delay (ms). */
async function loopDelay(url: string): Promise<{ p50: number; p99: number; max: number }> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const read = (q: string) =>
    1000 *
    Number(
      new RegExp(`^grd_event_loop_delay_seconds\\{quantile="${q}"\\} (\\S+)$`, 'm').exec(text)?.[1],
    );
  return { p50: read('0.5'), p99: read('0.99'), max: read('max') };
}

function summary(latencies: number[]) {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    requests: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? NaN,
  };
}

/** The victim: a cached page every 50 ms until `stop` says so; its latencies in ms. */
async function victim(url: string, stop: () => boolean): Promise<number[]> {
  const latencies: number[] = [];
  while (!stop()) {
    const at = performance.now();
    const res = await fetch(url + VICTIM_PATH, { headers: { 'x-forwarded-for': '10.99.0.1' } });
    await res.arrayBuffer();
    latencies.push(performance.now() - at);
    await sleep(Math.max(0, VICTIM_EVERY_MS - (performance.now() - at)));
  }
  return latencies;
}

async function scenario(
  url: string,
  name: string,
  heavy: () => Promise<number>,
): Promise<HeavyScenario> {
  await loopDelay(url);
  let done = false;
  const victimRun = victim(url, () => done);
  const answers: Record<string, number> = {};
  const started = performance.now();
  const status = await heavy();
  const heavyMs = performance.now() - started;
  answers[status] = (answers[status] ?? 0) + 1;
  await sleep(Math.max(0, MIN_SCENARIO_MS - heavyMs));
  done = true;
  const latencies = await victimRun;
  return { name, answers, heavyMs, victim: summary(latencies), loop: await loopDelay(url) };
}

export const RULES: AlertRule[] = [
  ...Array.from({ length: 10 }, (_, i) => ({
    kind: 'active_change' as const,
    min_abs_delta: i + 1,
  })),
  ...Array.from({ length: 10 }, (_, i) => ({
    kind: 'risk_threshold' as const,
    threshold: 10 * i + 5,
    direction: 'both' as const,
  })),
];

async function post(url: string, body: string, type: string): Promise<number> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': type }, body });
  await res.arrayBuffer();
  return res.status;
}

export async function runHeavyRoutes(nodeArgs: string[] = []): Promise<HeavyRoutesResult> {
  const started = performance.now();
  const { url, child, dataDir } = await startBuiltMain('grd-heavy-', { nodeArgs });
  try {
    let notReadyAnswers = 0;
    for (;;) {
      const res = await fetch(`${url}/readyz`);
      await res.arrayBuffer();
      if (res.status === 200) break;
      notReadyAnswers += 1;
      await sleep(250);
    }
    const readySeconds = (performance.now() - started) / 1000;
    // The victim's page, cached.
    await (await fetch(url + VICTIM_PATH)).arrayBuffer();
    const isos = (
      (await (await fetch(`${url}/api/countries`)).json()) as {
        countries: { iso: string }[];
      }
    ).countries.map((c) => c.iso);
    const scenarios: HeavyScenario[] = [];
    scenarios.push(
      await scenario(url, 'GET /api/batches/verify (181 batches)', async () => {
        const res = await fetch(`${url}/api/batches/verify`);
        await res.arrayBuffer();
        return res.status;
      }),
    );
    scenarios.push(
      await scenario(url, 'POST /api/watchlists/backtest (100 countries x 20 rules)', () =>
        post(
          `${url}/api/watchlists/backtest`,
          JSON.stringify({ countries: isos.slice(0, 100), rules: RULES }),
          'application/json',
        ),
      ),
    );
    // The demo holds its sample sites: 19,990 more would pass the 20,000 limit (409 after all
    // the work), so the import is checked in full as a dry run.
    const rows = Array.from(
      { length: 19_990 },
      (_, i) => `B-${i},Site ${i},office,${(i % 120) - 50 + 0.25},${(i % 340) - 170 + 0.25}`,
    );
    scenarios.push(
      await scenario(url, 'POST /api/sites/import?dry_run=1 (19,990 rows)', () =>
        post(
          `${url}/api/sites/import?dry_run=1`,
          `ref,name,kind,lat,lng\n${rows.join('\n')}\n`,
          'text/csv',
        ),
      ),
    );
    scenarios.push(
      await scenario(url, 'POST /api/sites/import (10 MB: 5,000,000 one-character rows)', () =>
        post(
          `${url}/api/sites/import`,
          `ref,name,kind,lat,lng\n${'x\n'.repeat(5_000_000 - 12)}`,
          'text/csv',
        ),
      ),
    );
    scenarios.push(await evaluationScenario());
    return { readySeconds, notReadyAnswers, scenarios };
  } finally {
    child.kill('SIGTERM');
    await new Promise((done) => child.once('exit', done));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The largest legal evaluation (500 lists × 42 countries × 20 rules, a new demo batch after
 * one evaluated), in this process: the victim is a 50 ms timer, its lateness the latency.
 */
export async function evaluationScenario(): Promise<HeavyScenario> {
  const dataDir = mkdtempSync(join(tmpdir(), 'grd-heavy-eval-'));
  const store = await HistoryStore.open({ dataDir, databaseUrl: null, retentionDays: null });
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
    const isos = first.countries.map((c) => c.iso);
    const lists = Array.from({ length: 500 }, (_, i) => ({
      name: `List ${i + 1}`,
      countries: Array.from({ length: 42 }, (_, k) => isos[(i + k) % isos.length]!),
      rules: RULES,
      owner: null,
    }));
    for (let i = 0; i < lists.length; i += 100) {
      await store.db.insert(watchlists).values(lists.slice(i, i + 100));
    }
    await store.recordBatch(demoSeedRecord(second));
    const delay = monitorEventLoopDelay({ resolution: 5 });
    const lateness: number[] = [];
    let expected = performance.now() + VICTIM_EVERY_MS;
    const timer = setInterval(() => {
      lateness.push(Math.max(0, performance.now() - expected));
      expected = performance.now() + VICTIM_EVERY_MS;
    }, VICTIM_EVERY_MS);
    delay.enable();
    const stretches = watchCpuStretches();
    const started = performance.now();
    const alerts = await evaluator.evaluatePending();
    const heavyMs = performance.now() - started;
    const cpuStretches = stretches.stop().slice(0, 5);
    await sleep(Math.max(0, 500 - heavyMs));
    clearInterval(timer);
    delay.disable();
    const ms = (ns: number) => ns / 1e6;
    return {
      name: `alert evaluation, 500 lists x 42 countries x 20 rules (${alerts} alerts; in-process, victim = a 50 ms timer's lateness)`,
      answers: { done: 1 },
      heavyMs,
      victim: summary(lateness),
      loop: { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) },
      cpuStretches,
    };
  } finally {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
