import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { percentile, rssMb } from './flood.js';
import { QUESTION_KINDS, questionPath, type QuestionKind } from './store-flood-paths.js';
import { startServer, type InsideStats, type Server } from './throughput.js';

// Issue 18, point 6: a flood of history and event-archive questions (answered from the store,
// no upstream request) from 20 clients, while another client keeps asking for a cached answer one request at a time (the question's random
// time means no memoised answer is exactly it; a series the BFF holds whole for the batch still
// answers it without a store query). Before the flood, each kind's cost is measured one question
// at a time: the BFF's CPU per question and the median wall time. The BFF runs in its own
// process over 90 days of seeded demo history (serve.ts bff-history), with the events of every
// country archived from the JSON export; its RSS is read from /proc.

/** The SPA's default hotspot list: a cached answer any other person would be asking for. */
const VICTIM_PATH = '/api/v1/hotspots';
/** The other client, as the BFF sees it (X-Forwarded-For from the trusted proxy 127.0.0.1). */
const VICTIM_HEADERS = { 'x-forwarded-for': '10.99.0.1' };

/** What one kind of question costs the BFF, asked one at a time before the flood. */
export interface QuestionCost {
  kind: QuestionKind | 'cached hotspots';
  /** First pass: `first` questions (a country's series: each a country not asked before). */
  first: { cpuMs: number; medianMs: number };
  /** Second pass, as many again (a country's series: the same countries, other ranges). */
  again: { cpuMs: number; medianMs: number };
}

export interface StoreFloodResult {
  requests: number;
  byStatus: Record<string, number>;
  byKind: Record<string, Record<string, number>>;
  seconds: number;
  /** The BFF's CPU time over the flood (its own process: PGlite runs inside it). */
  cpuSeconds: number;
  /** One-minute load average of the machine when the flood started and when it ended. */
  load: { before: number; after: number };
  costs: QuestionCost[];
  rssStartMb: number;
  rssPeakMb: number;
  events: number;
  victim: { requests: number; p50: number; p99: number; max: number };
  /** Over the flood: the other client's time inside the BFF, and the event loop's delay. */
  inside: InsideStats | null;
}

async function get(url: string): Promise<Response> {
  const res = await fetch(url, { headers: VICTIM_HEADERS });
  if (res.status !== 200) throw new Error(`warm-up ${url}: ${res.status}`);
  return res;
}
const getJson = async (url: string): Promise<unknown> => (await get(url)).json();

/** Questions of each kind per pass of the cost measurement. */
const COST_QUESTIONS = 30;

/** CPU (the BFF's, ms per question) and median wall time of `paths`, asked one at a time. */
async function cost(
  server: Server,
  paths: string[],
  client: string,
): Promise<{ cpuMs: number; medianMs: number }> {
  const walls: number[] = [];
  const before = await server.cpu();
  for (const path of paths) {
    const at = performance.now();
    const res = await fetch(server.url + path, { headers: { 'x-forwarded-for': client } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`cost of ${path}: ${res.status}`);
    walls.push(performance.now() - at);
  }
  const cpuMs = ((await server.cpu()) - before) / 1000 / paths.length;
  return {
    cpuMs,
    medianMs: percentile(
      walls.sort((a, b) => a - b),
      50,
    ),
  };
}

/** Resolves when the BFF used under 25 ms of CPU in half a second (at most 30 s). */
async function settled(server: Server): Promise<void> {
  for (let tries = 0; tries < 60; tries++) {
    const before = await server.cpu();
    await new Promise((done) => setTimeout(done, 500));
    if ((await server.cpu()) - before < 25_000) return;
  }
}

/**
 * Each kind twice, one question at a time, each kind from its own client (the rate per client
 * stays out of it). A country's series: first 30 countries not asked before (each read from the
 * store), then the same countries with other ranges (held by the BFF since the first pass).
 */
async function questionCosts(server: Server, codes: string[]): Promise<QuestionCost[]> {
  const costs: QuestionCost[] = [];
  const countries = codes.slice(0, COST_QUESTIONS);
  const paths = (kind: QuestionKind) =>
    kind === 'country series'
      ? countries.map((iso) => questionPath(kind, codes, iso))
      : Array.from({ length: COST_QUESTIONS }, () => questionPath(kind, codes));
  for (const [n, kind] of QUESTION_KINDS.entries()) {
    const client = `10.98.${n}.1`;
    const first = await cost(server, paths(kind), client);
    costs.push({ kind, first, again: await cost(server, paths(kind), client) });
  }
  const hotspots = Array.from({ length: COST_QUESTIONS }, () => VICTIM_PATH);
  const first = await cost(server, hotspots, '10.98.99.1');
  costs.push({ kind: 'cached hotspots', first, again: await cost(server, hotspots, '10.98.99.1') });
  return costs;
}

export async function runStoreFlood(
  total = 2000,
  clients = 20,
  perClient = 2,
  env: Record<string, string> = {},
): Promise<StoreFloodResult> {
  const server = await startServer(['bff-history'], env);
  const pid = server.child.pid ?? 0;
  try {
    // Warm: the hotspot list, and the JSON export (it archives every country's events).
    await (await get(server.url + VICTIM_PATH)).arrayBuffer();
    await (await get(server.url + '/api/v1/export?format=json')).arrayBuffer();
    const countries = (await getJson(server.url + '/api/countries')) as {
      countries?: { iso: string }[];
    };
    const codes = (countries.countries ?? []).map((c) => c.iso);
    let events = 0;
    // The archive is written in the background: wait until it answers.
    for (let tries = 0; events === 0 && tries < 100; tries++) {
      const page = (await getJson(server.url + '/api/events?limit=100')) as { events: unknown[] };
      events = page.events.length;
      if (events === 0) await new Promise((done) => setTimeout(done, 100));
    }
    // The warm-up's background work (recording the live batch, archiving the export's events)
    // would be counted as the first questions' CPU: wait until the BFF idles.
    await settled(server);
    // Before the flood, and after the warm-up, so the flood meets the state a busy BFF is in.
    const costs = await questionCosts(server, codes);
    const rssStartMb = rssMb(pid);
    const loadBefore = loadavg()[0] ?? NaN;
    const cpuBefore = await server.cpu();
    let rssPeakMb = rssStartMb;
    const sampler = setInterval(() => {
      rssPeakMb = Math.max(rssPeakMb, rssMb(pid));
    }, 100);

    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'scripts/bench/store-flood-client.ts',
        server.url,
        String(total),
        String(clients),
        String(perClient),
        codes.join(','),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let output = '';
    let markStarted = (): void => {};
    const started = new Promise<void>((resolve) => {
      markStarted = resolve;
    });
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('flooding\n')) markStarted();
    });
    const flooded = new Promise<
      Pick<StoreFloodResult, 'requests' | 'byStatus' | 'byKind' | 'seconds'>
    >((resolve, reject) => {
      child.on('exit', (code) => {
        if (code === 0) resolve(JSON.parse(output.replace('flooding\n', '')) as never);
        else reject(new Error(`store flood client exited with ${code}`));
      });
    });
    await Promise.race([started, flooded]);
    let flooding = true;
    void flooded.finally(() => {
      flooding = false;
    });
    const latencies: number[] = [];
    while (flooding) {
      const at = performance.now();
      const res = await fetch(server.url + VICTIM_PATH, { headers: VICTIM_HEADERS });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`the other client got ${res.status}`);
      latencies.push(performance.now() - at);
    }
    const result = await flooded;
    const cpuSeconds = ((await server.cpu()) - cpuBefore) / 1e6;
    const load = { before: loadBefore, after: loadavg()[0] ?? NaN };
    clearInterval(sampler);
    const sorted = latencies.sort((a, b) => a - b);
    return {
      ...result,
      cpuSeconds,
      load,
      costs,
      rssStartMb,
      rssPeakMb: Math.max(rssPeakMb, rssMb(pid)),
      events,
      inside: server.inside(),
      victim: {
        requests: sorted.length,
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        max: sorted.at(-1) ?? NaN,
      },
    };
  } finally {
    server.child.kill('SIGTERM');
  }
}
