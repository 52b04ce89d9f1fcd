import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordedBody } from './serve.js';

interface CannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
}) => Promise<CannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/** One run against one server, with the server's own CPU time per answer. */
export interface Run extends CannonResult {
  cpuMicrosPerRequest: number;
}

export interface ThroughputRow {
  path: string;
  /** The BFF ran from dist/node (true) or from the sources through tsx (false). */
  compiled: boolean;
  bytes: number;
  headerCount: number;
  bff: Run;
  /** node:http sending the BFF's exact answer: body and headers. */
  bare: Run;
  /** node:http sending the body with only Content-Type and Content-Length (one round). */
  bareMinimal: Run;
  /** Throughput of the BFF over that of `bare` (median rounds). */
  ratio: number;
  /** CPU per answer of `bare` over that of the BFF: the same ratio, unaffected by other load. */
  cpuRatio: number;
}

/** Headers that belong to the connection, not to the answer. */
const PER_CONNECTION = new Set([
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
]);

const PATHS = ['/api/v1/hotspots', '/api/countries'];

export interface Server {
  url: string;
  /** True when the server runs the compiled dist/node, false for the sources through tsx. */
  compiled: boolean;
  child: ChildProcess;
  /** The server's CPU time so far (µs), read over its stderr on SIGUSR2. */
  cpu(): Promise<number>;
  /** bff-history only: what serve.ts measured inside the BFF up to the last cpu() call. */
  inside(): InsideStats | null;
}

/** The other client's time inside the BFF (ms) and the event loop's delay (ms), per window. */
export interface InsideStats {
  inside: { count: number; p50: number; p99: number; max: number };
  loop: { p50: number; p99: number; max: number };
  gc: { totalMs: number; maxMs: number };
  /** Event-loop stalls over 100 ms: wall and CPU (ms) in all, and the longest one's. */
  stalls: { count: number; wallMs: number; cpuMs: number; longestMs: number; longestCpuMs: number };
}

export function startServer(args: string[], env: Record<string, string> = {}): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/serve.ts', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...env },
  });
  let text = '';
  let waiting: ((micros: number) => void) | null = null;
  let inside: InsideStats | null = null;
  child.stderr?.on('data', (chunk: Buffer) => {
    text += chunk.toString();
    const stats = /\{"stats":(\{.*\})\}\n/.exec(text);
    if (stats?.[1]) {
      text = text.replace(stats[0], '');
      inside = JSON.parse(stats[1]) as InsideStats;
    }
    const cpu = /\{"cpu":(\d+)\}\n/.exec(text);
    if (cpu?.[1] && waiting) {
      text = text.replace(cpu[0], '');
      waiting(Number(cpu[1]));
      waiting = null;
    }
  });
  const cpu = (): Promise<number> =>
    new Promise((resolve) => {
      waiting = resolve;
      child.kill('SIGUSR2');
    });
  return new Promise((resolve, reject) => {
    const poll = setInterval(() => {
      const match = /\{"url":"([^"]+)","compiled":(true|false)\}/.exec(text);
      if (match?.[1]) {
        clearInterval(poll);
        resolve({
          url: match[1],
          compiled: match[2] === 'true',
          child,
          cpu,
          inside: () => inside,
        });
      }
    }, 20);
    child.on('exit', (code) => {
      clearInterval(poll);
      reject(new Error(`bench server exited (${code}): ${text}`));
    });
  });
}

/** One autocannon run against `url`, with the server's CPU time (µs, from `cpu`) per answer. */
export async function measureRun(
  url: string,
  cpu: () => number | Promise<number>,
  seconds: number,
  connections: number,
): Promise<Run> {
  const before = await cpu();
  const result = await autocannon({ url, connections, duration: seconds });
  const used = (await cpu()) - before;
  return { ...result, cpuMicrosPerRequest: used / Math.max(1, result.requests.total) };
}

function measure(server: Server, path: string, seconds: number, connections: number) {
  return measureRun(server.url + path, () => server.cpu(), seconds, connections);
}

/** The round with the median throughput (the machine is shared: one round can be unlucky). */
export function median(runs: Run[]): Run {
  const sorted = [...runs].sort((a, b) => a.requests.average - b.requests.average);
  return sorted[Math.floor(sorted.length / 2)] as Run;
}

export function medianCpu(runs: Run[]): number {
  const sorted = runs.map((r) => r.cpuMicrosPerRequest).sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/** Records the BFF's cached answers (body and headers) for the bare servers to repeat. */
async function record(url: string): Promise<RecordedBody[]> {
  const recorded: RecordedBody[] = [];
  for (const path of PATHS) {
    await fetch(url + path); // the one miss; everything measured after is a hit
    const res = await fetch(url + path);
    const headers: Record<string, string> = {};
    res.headers.forEach((value, name) => {
      if (!PER_CONNECTION.has(name)) headers[name] = value;
    });
    recorded.push({ path, headers, body: await res.text() });
  }
  return recorded;
}

/**
 * Cached answers of the BFF against a bare node:http server sending the same bytes: the ratio
 * says what Fastify, the security headers, logging and the cache lookup cost per request. Every
 * server runs in its own process; autocannon runs here.
 */
export async function runThroughput(
  seconds = 10,
  connections = 50,
  rounds = 3,
): Promise<ThroughputRow[]> {
  const servers: Server[] = [];
  try {
    const bff = await startServer(['bff']);
    servers.push(bff);
    const full = await record(bff.url);
    const dir = mkdtempSync(join(tmpdir(), 'grd-bench-'));
    const minimal = full.map((r) => ({
      ...r,
      headers: { 'content-type': r.headers['content-type'] ?? 'application/json' },
    }));
    writeFileSync(join(dir, 'full.json'), JSON.stringify(full));
    writeFileSync(join(dir, 'minimal.json'), JSON.stringify(minimal));
    const bare = await startServer(['bare', join(dir, 'full.json')]);
    servers.push(bare);
    const bareMinimal = await startServer(['bare', join(dir, 'minimal.json')]);
    servers.push(bareMinimal);

    const rows: ThroughputRow[] = [];
    for (const recorded of full) {
      const { path } = recorded;
      // Warm-up (JIT, sockets), discarded; then the servers take turns, round by round, so a
      // burst of load from elsewhere on the machine hits them alike.
      for (const server of servers) await measure(server, path, 2, connections);
      const bffRuns: Run[] = [];
      const bareRuns: Run[] = [];
      for (let round = 0; round < rounds; round++) {
        bffRuns.push(await measure(bff, path, seconds, connections));
        bareRuns.push(await measure(bare, path, seconds, connections));
      }
      const fromBff = median(bffRuns);
      const fromBare = median(bareRuns);
      rows.push({
        path,
        compiled: bff.compiled,
        bytes: Buffer.byteLength(recorded.body),
        headerCount: Object.keys(recorded.headers).length,
        bff: { ...fromBff, cpuMicrosPerRequest: medianCpu(bffRuns) },
        bare: { ...fromBare, cpuMicrosPerRequest: medianCpu(bareRuns) },
        bareMinimal: await measure(bareMinimal, path, seconds, connections),
        ratio: fromBff.requests.average / fromBare.requests.average,
        cpuRatio: medianCpu(bareRuns) / medianCpu(bffRuns),
      });
    }
    return rows;
  } finally {
    for (const server of servers) server.child.kill('SIGTERM');
  }
}
