// A server for the throughput benchmark, in its own process so that autocannon (in the parent)
// does not share its event loop. Prints one JSON line with its URL when ready.
//   bff:          the demo upstream + the BFF with production defaults (info logging to stdout)
//   bff-history:  the same BFF with 90 days of demo history seeded (as `npm start` seeds it),
//                 127.0.0.1 trusted as a proxy (so X-Forwarded-For names each client) and any
//                 STORE_QUERIES_* and STORE_QUERY_* variables of this process passed on
//   bare <file>:  node:http answering the bytes recorded in <file> for each path (headers too)

import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import {
  createServer,
  type IncomingMessage,
  type Server as HttpServer,
  type ServerResponse,
} from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type * as DemoModuleNs from '../../src/demo-upstream/server.js';
import type * as AppModuleNs from '../../src/server/compose/app.js';
import type * as ConfigModuleNs from '../../src/server/config.js';
import type * as LoggerModuleNs from '../../src/server/logger.js';
import type * as SecretModuleNs from '../../src/server/secret.js';
import type * as StoreModuleNs from '../../src/server/store/history-store.js';
import type * as SeedModuleNs from '../../src/server/compose/demo.js';

type DemoModule = typeof DemoModuleNs;
type AppModule = typeof AppModuleNs;
type ConfigModule = typeof ConfigModuleNs;
type LoggerModule = typeof LoggerModuleNs;
type SecretModule = typeof SecretModuleNs;
type StoreModule = typeof StoreModuleNs;
type SeedModule = typeof SeedModuleNs;

// The compiled server (dist/node, what `npm start` runs; `npm run bench` builds it first) when
// present, else the sources through tsx (whose keep-names helper adds a little to every closure).
const compiled = existsSync(
  fileURLToPath(new URL('../../dist/node/server/compose/app.js', import.meta.url)),
);
const root = compiled ? '../../dist/node' : '../../src';
const load = async <T>(path: string): Promise<T> =>
  (await import(new URL(`${root}/${path}`, import.meta.url).href)) as T;
const { startDemoUpstream } = await load<DemoModule>('demo-upstream/server.js');
const { buildApp } = await load<AppModule>('server/compose/app.js');
const { parseConfig } = await load<ConfigModule>('server/config.js');
const { createLogger } = await load<LoggerModule>('server/logger.js');
const { Secret } = await load<SecretModule>('server/secret.js');

export interface RecordedBody {
  path: string;
  /** The BFF's answer headers (all of them for "same bytes", or only content-type). */
  headers: Record<string, string>;
  body: string;
}

async function serveBff(): Promise<string> {
  const demo = await startDemoUpstream({ host: '127.0.0.1', port: 0 });
  const config = parseConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), 'grd-bench-')), PORT: '0' });
  const { app } = await buildApp(config, {
    upstream: { mode: 'demo', baseUrl: demo.url, apiKey: new Secret(demo.issueKey('Pro')) },
    logger: createLogger('info'),
  });
  return app.listen({ host: '127.0.0.1', port: 0 });
}

/** The BFF over a store holding the 180 batches `npm start` seeds in demo mode. */
async function serveBffWithHistory(): Promise<string> {
  const { HistoryStore } = await load<StoreModule>('server/store/history-store.js');
  const { seedDemoHistory } = await load<SeedModule>('server/compose/demo.js');
  const demo = await startDemoUpstream({ host: '127.0.0.1', port: 0 });
  const settings = Object.entries(process.env).filter(([name]) => name.startsWith('STORE_QUER'));
  const config = parseConfig({
    DATA_DIR: mkdtempSync(join(tmpdir(), 'grd-bench-')),
    PORT: '0',
    TRUSTED_PROXY_ADDRESSES: '127.0.0.1',
    ...Object.fromEntries(settings),
  });
  const store = await HistoryStore.open({
    dataDir: config.server.dataDir,
    databaseUrl: null,
    retentionDays: null,
  });
  // The seed `npm start` runs in demo mode: the same 180 batches, the same way.
  await seedDemoHistory(store, Date.now(), () => false);
  const { app } = await buildApp(config, {
    upstream: { mode: 'demo', baseUrl: demo.url, apiKey: new Secret(demo.issueKey('Pro')) },
    logger: createLogger('info'),
    historyStore: store,
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  watchInside(app.server);
  return url;
}

/** The victim's address in store-flood.ts: its requests are timed inside this process too. */
const VICTIM_ADDRESS = '10.99.0.1';
const insideMs: number[] = [];
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
/**
 * Stalls of the event loop over 100 ms: their wall time and the process's CPU within them. A
 * stall with about as much CPU as wall time is JavaScript (or GC) running; one with little CPU
 * is the process waiting for a core (the machine's load), not the BFF's own work.
 */
const stalls = { count: 0, wallMs: 0, cpuMs: 0, longestMs: 0, longestCpuMs: 0 };
let lastTick = performance.now();
let lastCpu = process.cpuUsage();
/** Garbage collection's pauses over the window: total and longest (ms). */
const gc = { totalMs: 0, maxMs: 0 };

/**
 * Times the other client's requests from their headers being read to their answer's last byte
 * handed to the kernel (so the wait in the event loop's queue before the headers are parsed is
 * not in it; the client's wall time minus this is), and the event loop's delay over the same
 * window: what the store flood costs inside the BFF, whatever the load of the machine.
 */
function watchInside(server: HttpServer): void {
  loopDelay.enable();
  setInterval(() => {
    const now = performance.now();
    const cpu = process.cpuUsage();
    const wallMs = now - lastTick;
    const cpuMs = (cpu.user - lastCpu.user + cpu.system - lastCpu.system) / 1000;
    [lastTick, lastCpu] = [now, cpu];
    if (wallMs < 100) return;
    stalls.count += 1;
    stalls.wallMs += wallMs;
    stalls.cpuMs += cpuMs;
    if (wallMs > stalls.longestMs)
      Object.assign(stalls, { longestMs: wallMs, longestCpuMs: cpuMs });
  }, 5).unref();
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gc.totalMs += entry.duration;
      gc.maxMs = Math.max(gc.maxMs, entry.duration);
    }
  }).observe({ entryTypes: ['gc'] });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.headers['x-forwarded-for'] !== VICTIM_ADDRESS) return;
    const at = performance.now();
    res.on('finish', () => insideMs.push(performance.now() - at));
  });
}

/** The inside figures since the last call, then starts a new window. */
function insideStats(): string {
  const sorted = insideMs.splice(0).sort((a, b) => a - b);
  const at = (p: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
  const ms = (ns: number) => ns / 1e6;
  const stats = {
    inside: { count: sorted.length, p50: at(50), p99: at(99), max: sorted.at(-1) ?? 0 },
    loop: {
      p50: ms(loopDelay.percentile(50)),
      p99: ms(loopDelay.percentile(99)),
      max: ms(loopDelay.max),
    },
    gc: { ...gc },
    stalls: { ...stalls },
  };
  loopDelay.reset();
  Object.assign(gc, { totalMs: 0, maxMs: 0 });
  Object.assign(stalls, { count: 0, wallMs: 0, cpuMs: 0, longestMs: 0, longestCpuMs: 0 });
  return `${JSON.stringify({ stats })}\n`;
}

async function serveBare(file: string): Promise<string> {
  const recorded = JSON.parse(readFileSync(file, 'utf8')) as RecordedBody[];
  const answers = new Map(
    recorded.map((r) => [r.path, { headers: r.headers, body: Buffer.from(r.body) }]),
  );
  const server = createServer((req, res) => {
    const answer = answers.get(req.url ?? '');
    if (!answer) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { ...answer.headers, 'content-length': answer.body.length });
    res.end(answer.body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

const [mode, file] = process.argv.slice(2);
const url =
  mode === 'bare' && file
    ? await serveBare(file)
    : mode === 'bff-history'
      ? await serveBffWithHistory()
      : await serveBff();
process.stderr.write(`${JSON.stringify({ url, compiled })}\n`);
// A normal exit on SIGTERM, so `--cpu-prof` can write its profile when profiling this server.
process.on('SIGTERM', () => process.exit(0));
// CPU time used so far (µs), for the benchmark's CPU-per-answer figure.
process.on('SIGUSR2', () => {
  const { user, system } = process.cpuUsage();
  process.stderr.write(
    `${mode === 'bff-history' ? insideStats() : ''}${JSON.stringify({ cpu: user + system })}\n`,
  );
});
