import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { percentile, rssMb } from './flood.js';
import { startServer } from './throughput.js';

// Issue 18, point 6: a flood of history and event-archive questions (answered from the store,
// no upstream request) from 20 clients, each question one no memoised answer covers, while
// another client keeps asking for a cached answer one request at a time. The BFF runs in its own
// process over 90 days of seeded demo history (serve.ts bff-history), with the events of every
// country archived from the JSON export; its RSS is read from /proc.

/** The SPA's default hotspot list: a cached answer any other person would be asking for. */
const VICTIM_PATH = '/api/v1/hotspots';
/** The other client, as the BFF sees it (X-Forwarded-For from the trusted proxy 127.0.0.1). */
const VICTIM_HEADERS = { 'x-forwarded-for': '10.99.0.1' };

export interface StoreFloodResult {
  requests: number;
  byStatus: Record<string, number>;
  seconds: number;
  rssStartMb: number;
  rssPeakMb: number;
  events: number;
  victim: { requests: number; p50: number; p99: number; max: number };
}

async function get(url: string): Promise<Response> {
  const res = await fetch(url, { headers: VICTIM_HEADERS });
  if (res.status !== 200) throw new Error(`warm-up ${url}: ${res.status}`);
  return res;
}
const getJson = async (url: string): Promise<unknown> => (await get(url)).json();

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
    const flooded = new Promise<Pick<StoreFloodResult, 'requests' | 'byStatus' | 'seconds'>>(
      (resolve, reject) => {
        child.on('exit', (code) => {
          if (code === 0) resolve(JSON.parse(output.replace('flooding\n', '')) as never);
          else reject(new Error(`store flood client exited with ${code}`));
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
      const res = await fetch(server.url + VICTIM_PATH, { headers: VICTIM_HEADERS });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`the other client got ${res.status}`);
      latencies.push(performance.now() - at);
    }
    const result = await flooded;
    clearInterval(sampler);
    const sorted = latencies.sort((a, b) => a - b);
    return {
      ...result,
      rssStartMb,
      rssPeakMb: Math.max(rssPeakMb, rssMb(pid)),
      events,
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
