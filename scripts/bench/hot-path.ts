import { spawn, type ChildProcess } from 'node:child_process';
import { startBuiltMain } from './built-main.js';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { RecordedAnswer } from './hot-path-bare.js';

// Issue 35, item 10: what a cached answer costs. The BFF as `npm start` runs it (`node
// dist/node/server/main.js`, demo mode, production defaults, the SPA served, every plugin on) on
// an empty DATA_DIR, after its demo seed; beside it a bare node:http server replaying the BFF's
// recorded answer to the hotspot list, every header and byte of it (hot-path-bare.ts). The two
// take turns, round by round, with and without `Accept-Encoding: br`, so load from elsewhere on
// the shared machine hits both alike; the figure is the ratio of their throughputs.

interface CannonResult {
  requests: { average: number; total: number };
  latency: { p99: number };
  non2xx: number;
  errors: number;
}
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
}) => Promise<CannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/** The most frequent request: the SPA's default hotspot list (~6 KB). */
export const HOT_PATH = '/api/v1/hotspots';

const ENCODINGS = [
  { name: 'identity', headers: {} },
  { name: 'br', headers: { 'accept-encoding': 'br' } },
] as const;

/** Headers that belong to the connection, not to the answer. */
const PER_CONNECTION = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

export interface HotPathRun {
  reqPerSec: number;
  p99: number;
  /** The server process's CPU time (from /proc) over the answers it sent, µs. */
  cpuMicros: number;
  non2xx: number;
}

export interface HotPathRow {
  encoding: 'identity' | 'br';
  bytes: number;
  bff: HotPathRun[];
  bare: HotPathRun[];
  /** Median of the per-round ratios BFF / bare (req/s). */
  ratio: number;
  /** Median of the per-round ratios bare / BFF (CPU per answer). */
  cpuRatio: number;
}

interface Child {
  url: string;
  child: ChildProcess;
}

/** user + system CPU time of a process so far, µs (Linux /proc). */
function cpuMicrosOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // utime and stime are fields 14 and 15 of the line, 12 and 13 after "pid (comm) ".
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks / 100) * 1e6;
}

/** Waits until the process used under 5% of a core over 2 s (at most 120 s). */
async function settled(pid: number): Promise<void> {
  const until = performance.now() + 120_000;
  while (performance.now() < until) {
    const before = cpuMicrosOf(pid);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    if (cpuMicrosOf(pid) - before < 100_000) return;
  }
}

function startBare(file: string): Promise<Child> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'scripts/bench/hot-path-bare.ts', file],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let text = '';
  return new Promise((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const url = /\{"url":"([^"]+)"\}/.exec(text)?.[1];
      if (url) resolve({ url, child });
    });
    child.on('exit', (code) => reject(new Error(`the bare server exited (${code}): ${text}`)));
  });
}

/** The BFF's answer (headers and bytes as sent), the one miss first. */
async function record(url: string): Promise<RecordedAnswer[]> {
  await (await fetch(url + HOT_PATH)).arrayBuffer();
  const http = await import('node:http');
  const answers: RecordedAnswer[] = [];
  for (const { name, headers } of ENCODINGS) {
    // node:http, not fetch: fetch would decode the brotli body.
    const answer = await new Promise<RecordedAnswer>((resolve, reject) => {
      http
        .get(url + HOT_PATH, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const kept: Record<string, string> = {};
            for (const [header, value] of Object.entries(res.headers)) {
              if (typeof value === 'string' && !PER_CONNECTION.has(header)) kept[header] = value;
            }
            if (res.statusCode !== 200 || kept['x-cache'] !== 'HIT') {
              reject(new Error(`${HOT_PATH} (${name}): ${res.statusCode} ${kept['x-cache']}`));
            }
            resolve({
              path: HOT_PATH,
              encoding: name === 'br' ? 'br' : null,
              headers: kept,
              body: Buffer.concat(chunks).toString('base64'),
            });
          });
        })
        .on('error', reject);
    });
    answers.push(answer);
  }
  return answers;
}

async function measure(
  server: Child,
  headers: Record<string, string>,
  seconds: number,
  connections: number,
): Promise<HotPathRun> {
  const pid = server.child.pid ?? 0;
  const before = cpuMicrosOf(pid);
  const result = await autocannon({
    url: server.url + HOT_PATH,
    connections,
    duration: seconds,
    headers,
  });
  const used = cpuMicrosOf(pid) - before;
  return {
    reqPerSec: result.requests.average,
    p99: result.latency.p99,
    cpuMicros: used / Math.max(1, result.requests.total),
    non2xx: result.non2xx + result.errors,
  };
}

const medianOf = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

/**
 * The hot path's ratios: BFF over bare node:http, identity and br. `nodeArgs` go to the BFF's
 * node (e.g. `--cpu-prof --cpu-prof-dir=…` to profile it under this load).
 */
export async function runHotPath(
  seconds = 10,
  connections = 50,
  rounds = 5,
  nodeArgs: string[] = [],
): Promise<{ rows: HotPathRow[]; seedSeconds: number }> {
  const started = performance.now();
  // Measured once the demo seed is done (its last step makes the sites).
  const bff = await startBuiltMain('grd-hot-path-', {
    until: /demo sites (ready|could not be made)/,
    nodeArgs,
  });
  const seedSeconds = (performance.now() - started) / 1000;
  // After the seed the BFF still has work of its own (the backtests' warm-up, releasing the
  // seed's memory): measured during it, a cached answer would be charged for it.
  await settled(bff.child.pid ?? 0);
  let bare: Child | null = null;
  try {
    const recorded = await record(bff.url);
    const file = join(mkdtempSync(join(tmpdir(), 'grd-hot-path-bare-')), 'answers.json');
    writeFileSync(file, JSON.stringify(recorded));
    bare = await startBare(file);
    const rows: HotPathRow[] = [];
    for (const { name, headers } of ENCODINGS) {
      // Warm-up (JIT, sockets), discarded.
      await measure(bff, headers, 2, connections);
      await measure(bare, headers, 2, connections);
      const bffRuns: HotPathRun[] = [];
      const bareRuns: HotPathRun[] = [];
      for (let round = 0; round < rounds; round++) {
        // Who goes first alternates too, so neither always follows the other's heat.
        const pair = round % 2 === 0 ? [bff, bare] : [bare, bff];
        for (const server of pair) {
          const run = await measure(server, headers, seconds, connections);
          (server === bff ? bffRuns : bareRuns).push(run);
        }
      }
      const answer = recorded.find((r) => (r.encoding ?? 'identity') === name);
      rows.push({
        encoding: name,
        bytes: answer ? Buffer.from(answer.body, 'base64').length : 0,
        bff: bffRuns,
        bare: bareRuns,
        ratio: medianOf(bffRuns.map((run, i) => run.reqPerSec / (bareRuns[i]?.reqPerSec ?? NaN))),
        cpuRatio: medianOf(
          bffRuns.map((run, i) => (bareRuns[i]?.cpuMicros ?? NaN) / run.cpuMicros),
        ),
      });
    }
    return { rows, seedSeconds };
  } finally {
    bare?.child.kill('SIGTERM');
    await stop(bff.child);
  }
}

/** SIGTERM, then wait for the exit (a `--cpu-prof` profile is written on the way out). */
function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.removeAllListeners('exit');
    child.on('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
