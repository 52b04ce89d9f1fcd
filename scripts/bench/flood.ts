import { spawn } from 'node:child_process';
import { startBuiltMain } from './built-main.js';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

// The random-label flood of issue #10: requests whose tier list ends in a label no batch has
// shown (`...&tier=crit,high,low,mod,<random>&include=categories,events`), from many concurrent
// connections, while another client keeps asking for a cached answer one request at a time. The
// BFF is `node dist/node/server/main.js` as `npm start` runs it (demo mode, production defaults)
// on an empty DATA_DIR, so it holds 90 days of seeded history (issue 18); its RSS is read from
// /proc: idle once the seed is done and settled, then during the flood.

const FLOOD_PATH = '/api/v1/hotspots?limit=50&include=categories,events&tier=crit,high,low,mod,';
/** The SPA's default hotspot list: a cached answer any other person would be asking for. */
const VICTIM_PATH = '/api/v1/hotspots';

export interface FloodResult {
  /** RSS 30 s after the seed and the sample watchlist were done, before any request. */
  rssIdleMb: number;
  seedSeconds: number;
  requests: number;
  non200: number;
  seconds: number;
  rssStartMb: number;
  rssPeakMb: number;
  rssEndMb: number;
  victim: { requests: number; p50: number; p99: number; max: number };
}

export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
}

export async function runFlood(total = 20_000, connections = 50): Promise<FloodResult> {
  const seeded = await startBuiltMain('grd-flood-', {
    until: /demo watchlist (ready|could not be made)/,
  });
  const server = { url: seeded.url, child: seeded.child };
  const pid = server.child.pid ?? 0;
  try {
    await sleep(30_000);
    const rssIdleMb = rssMb(pid);
    // Warm: the one upstream request each, then everything below is answered from the cache.
    for (const path of [FLOOD_PATH + 'warm', VICTIM_PATH]) {
      const res = await fetch(server.url + path);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`warm-up ${path}: ${res.status}`);
    }
    const rssStartMb = rssMb(pid);
    let rssPeakMb = rssStartMb;
    const sampler = setInterval(() => {
      rssPeakMb = Math.max(rssPeakMb, rssMb(pid));
    }, 100);

    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'scripts/bench/flood-client.ts',
        server.url,
        FLOOD_PATH,
        String(total),
        String(connections),
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
    const flooded = new Promise<{ requests: number; non200: number; seconds: number }>(
      (resolve, reject) => {
        child.on('exit', (code) => {
          if (code === 0) resolve(JSON.parse(output.replace('flooding\n', '')) as never);
          else reject(new Error(`flood client exited with ${code}`));
        });
      },
    );
    await Promise.race([started, flooded]);
    let flooding = true;
    void flooded.finally(() => {
      flooding = false;
    });
    const latencies: number[] = [];
    while (flooding) {
      const at = performance.now();
      const res = await fetch(server.url + VICTIM_PATH);
      await res.arrayBuffer();
      latencies.push(performance.now() - at);
    }
    const { requests: sent, non200, seconds } = await flooded;
    clearInterval(sampler);
    const sorted = latencies.sort((a, b) => a - b);
    return {
      rssIdleMb,
      seedSeconds: seeded.seconds,
      requests: sent,
      non200,
      seconds,
      rssStartMb,
      rssPeakMb: Math.max(rssPeakMb, rssMb(pid)),
      rssEndMb: rssMb(pid),
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
