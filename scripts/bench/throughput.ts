import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordedBody } from './serve.js';

interface CannonResult {
  requests: { average: number };
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

export interface ThroughputRow {
  path: string;
  bytes: number;
  headerCount: number;
  bff: CannonResult;
  /** node:http sending the BFF's exact answer: body and headers. */
  bare: CannonResult;
  /** node:http sending the body with only Content-Type and Content-Length. */
  bareMinimal: CannonResult;
  ratio: number;
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

function startServer(args: string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/serve.ts', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let text = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = /\{"url":"([^"]+)"\}/.exec(text);
      if (match?.[1]) resolve({ url: match[1], child });
    });
    child.on('exit', (code) => reject(new Error(`bench server exited (${code}): ${text}`)));
  });
}

async function measure(url: string, seconds: number, connections: number): Promise<CannonResult> {
  return autocannon({ url, connections, duration: seconds });
}

/** The round with the median throughput (the machine is shared: one round can be unlucky). */
function median(results: CannonResult[]): CannonResult {
  const sorted = [...results].sort((a, b) => a.requests.average - b.requests.average);
  return sorted[Math.floor(sorted.length / 2)] as CannonResult;
}

/**
 * Cached answers of the BFF against a bare node:http server sending the same bytes: the ratio
 * says what Fastify, helmet, access logging and the cache lookup cost per request.
 */
export async function runThroughput(
  seconds = 10,
  connections = 50,
  rounds = 3,
): Promise<ThroughputRow[]> {
  const bff = await startServer(['bff']);
  const full: RecordedBody[] = [];
  try {
    for (const path of PATHS) {
      await fetch(bff.url + path); // the one miss; everything measured after is a hit
      const res = await fetch(bff.url + path);
      const headers: Record<string, string> = {};
      res.headers.forEach((value, name) => {
        if (!PER_CONNECTION.has(name)) headers[name] = value;
      });
      full.push({ path, headers, body: await res.text() });
    }
    const dir = mkdtempSync(join(tmpdir(), 'grd-bench-'));
    const minimal = full.map((r) => ({
      ...r,
      headers: { 'content-type': r.headers['content-type'] ?? 'application/json' },
    }));
    writeFileSync(join(dir, 'full.json'), JSON.stringify(full));
    writeFileSync(join(dir, 'minimal.json'), JSON.stringify(minimal));
    const bare = await startServer(['bare', join(dir, 'full.json')]);
    const bareMinimal = await startServer(['bare', join(dir, 'minimal.json')]);
    try {
      const rows: ThroughputRow[] = [];
      for (const recorded of full) {
        const targets = [bff.url, bare.url, bareMinimal.url].map((u) => u + recorded.path);
        // Warm-up (JIT, sockets), discarded; then the three servers take turns, round by round,
        // so a burst of load from elsewhere on the machine hits them alike.
        for (const url of targets) await measure(url, 2, connections);
        const results: CannonResult[][] = [[], []];
        for (let round = 0; round < rounds; round++) {
          for (const [i, url] of targets.slice(0, 2).entries()) {
            results[i]?.push(await measure(url, seconds, connections));
          }
        }
        const [fromBff, fromBare] = results.map(median) as [CannonResult, CannonResult];
        // For information only (one round): the same body with two headers instead of the BFF's.
        const fromMinimal = await measure(targets[2] ?? '', seconds, connections);
        rows.push({
          path: recorded.path,
          bytes: Buffer.byteLength(recorded.body),
          headerCount: Object.keys(recorded.headers).length,
          bff: fromBff,
          bare: fromBare,
          bareMinimal: fromMinimal,
          ratio: fromBff.requests.average / fromBare.requests.average,
        });
      }
      return rows;
    } finally {
      bare.child.kill('SIGTERM');
      bareMinimal.child.kill('SIGTERM');
    }
  } finally {
    bff.child.kill('SIGTERM');
  }
}
