import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { runAlertBench } from './alerts.js';
import { runFlood } from './flood.js';
import { runHeavyRoutes } from './heavy-routes.js';
import { runAsOfBench } from './as-of.js';
import { runHistoryBench } from './history.js';
import { runHotPath } from './hot-path.js';
import { runLighthouse } from './lighthouse.js';
import { runReplicaMissBench } from './replica-miss.js';
import { runSitesBench } from './sites.js';
import { runSitesMapBench } from './sites-map.js';
import { runStartUpStalls } from './start-up-stalls.js';
import { runStoreFlood } from './store-flood.js';
import { runReplicaTeamDay, type ReplicaTeamDayResult } from './replica-team-day.js';
import { runClusterHitThroughput } from './replica-throughput.js';
import { startPostgres } from '../../test/helpers/postgres-server.js';
import { runTeamDay } from './team-day.js';
import { runTeamIndexBench } from './team-index.js';
import type { Stalls } from './team-index-probe.js';
import { runThroughput } from './throughput.js';

// `npm run bench`: prints (1) throughput and p99 of cached answers beside a bare node:http server
// sending the same bytes, (2) the upstream requests of a simulated team day, and (3) the SPA's
// browser timing when scripts/bench/browser.ts exists (it exports `runBrowserBench()`, which
// prints its own lines), (4) a random-label flood (scripts/bench/flood.ts) and (5) the history store at two years
// (scripts/bench/history.ts), (6) replicas behind nginx on PostgreSQL (replica-team-day.ts,
// replica-throughput.ts), (7) a store-query flood from 20 clients (store-flood.ts), (8) alert
// evaluation at 2,000 lists (scripts/bench/alerts.ts), (12) the hot path: a cached hotspot list
// from `npm start`'s BFF beside bare node:http, identity and br (scripts/bench/hot-path.ts).
// `--quick` shortens (1), (6) and (12)'s throughput to short rounds.

const quick = process.argv.includes('--quick');
// `--flood`: only the random-label flood (section 4), e.g. to compare two builds.
const floodOnly = process.argv.includes('--flood');
const print = (line = ''): void => {
  process.stdout.write(`${line}\n`);
};
const pad = (value: string | number, width: number): string => String(value).padStart(width);

print('Global Risk Dashboard benchmark');
print(
  `node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}), load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);

async function printFlood(): Promise<void> {
  print('(4) Random-label flood: 20,000 hotspot requests, each with a tier label no batch has');
  print('    shown, 50 concurrent connections; meanwhile one other client asks /api/v1/hotspots');
  print('    (cached) one request at a time. BFF: `node dist/node/server/main.js` (demo mode,');
  print('    production defaults) on an empty DATA_DIR, after its 90-day seed.');
  const flood = await runFlood(20_000, 50);
  print(
    `seeded in ${flood.seedSeconds.toFixed(0)} s; BFF RSS idle ${flood.rssIdleMb.toFixed(0)} MB ` +
      '30 s after the seed (target <= 250 MB)',
  );
  print(
    `${flood.requests} requests in ${flood.seconds.toFixed(1)} s (${Math.round(flood.requests / flood.seconds)}/s), ` +
      `${flood.non200} not 200; BFF RSS ${flood.rssStartMb.toFixed(0)} MB before, ` +
      `${flood.rssPeakMb.toFixed(0)} MB peak, ${flood.rssEndMb.toFixed(0)} MB after (target <= 400 MB)`,
  );
  print(
    `other client: ${flood.victim.requests} answers, p50 ${flood.victim.p50.toFixed(1)} ms, ` +
      `p99 ${flood.victim.p99.toFixed(1)} ms, max ${flood.victim.max.toFixed(1)} ms (target p99 < 50 ms)`,
  );
  print(
    `load average after: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

async function printStoreFlood(): Promise<void> {
  print('(7) Store-query flood (issue 18): 2,000 history, changes and event-archive questions,');
  print('    each with a random time (no memoised answer is exactly it), from 20 clients');
  print('    (X-Forwarded-For from the trusted proxy 127.0.0.1), 2 connections each; meanwhile');
  print('    another client asks /api/v1/hotspots (cached) one request at a time. BFF in its own');
  print(
    '    process, 180 demo batches seeded. Figures depend on the load: it is printed with them.',
  );
  const flood = await runStoreFlood(2000, 20, 2);
  print('cost of one question, asked one at a time before the flood (BFF CPU / median wall):');
  for (const { kind, first, again } of flood.costs) {
    const pass = (p: { cpuMs: number; medianMs: number }) =>
      `${p.cpuMs.toFixed(1)} / ${p.medianMs.toFixed(1)} ms`;
    print(`  ${kind.padEnd(16)} first ${pass(first)}, again ${pass(again)}`);
  }
  const statuses = (counts: Record<string, number>) =>
    Object.entries(counts)
      .map(([status, n]) => `${status}: ${n}`)
      .join(', ');
  print(
    `flood: ${flood.requests} requests in ${flood.seconds.toFixed(1)} s (${statuses(flood.byStatus)}); ` +
      `BFF CPU ${flood.cpuSeconds.toFixed(1)} s; ` +
      `RSS ${flood.rssStartMb.toFixed(0)} MB before, ${flood.rssPeakMb.toFixed(0)} MB peak`,
  );
  for (const [kind, counts] of Object.entries(flood.byKind)) {
    print(`  ${kind.padEnd(16)} ${statuses(counts)}`);
  }
  print(
    `other client: ${flood.victim.requests} answers, p50 ${flood.victim.p50.toFixed(1)} ms, ` +
      `p99 ${flood.victim.p99.toFixed(1)} ms, max ${flood.victim.max.toFixed(1)} ms (target p99 <= 50 ms)`,
  );
  if (flood.inside) {
    const { inside, loop, gc, stalls } = flood.inside;
    print(
      `  inside the BFF (headers read to answer sent): ${inside.count} answers, ` +
        `p50 ${inside.p50.toFixed(1)} ms, p99 ${inside.p99.toFixed(1)} ms, max ${inside.max.toFixed(1)} ms; ` +
        `event-loop delay p50 ${loop.p50.toFixed(1)} ms, p99 ${loop.p99.toFixed(1)} ms, max ${loop.max.toFixed(1)} ms; ` +
        `GC pauses ${gc.totalMs.toFixed(0)} ms in all, longest ${gc.maxMs.toFixed(1)} ms`,
    );
    print(
      `  event-loop stalls over 100 ms: ${stalls.count}, ${stalls.wallMs.toFixed(0)} ms in all with ` +
        `${stalls.cpuMs.toFixed(0)} ms of CPU; longest ${stalls.longestMs.toFixed(0)} ms with ` +
        `${stalls.longestCpuMs.toFixed(0)} ms of CPU`,
    );
  }
  print(
    `load average (1 min) at the flood's start ${flood.load.before.toFixed(2)}, ` +
      `at its end ${flood.load.after.toFixed(2)}`,
  );
}

async function printHistory(): Promise<void> {
  print('(5) History store: two years of batches (1,460) of every demo country, embedded PGlite');
  const history = await runHistoryBench();
  print(
    `${history.batches} batches x ${history.countries} countries recorded in ${history.fillSeconds.toFixed(0)} s; ` +
      `recording one more batch: ${history.recordMs.map(ms).join(', ')} (target <= 1000 ms); ` +
      `a month's first batch (seals the month before; second year): ` +
      `median ${ms(median(history.sealingRecordMs))}, max ${ms(Math.max(...history.sealingRecordMs))}`,
  );
  print(
    `one country's full history (${history.countryPoints} points): cold ${ms(history.countryColdMs)} ` +
      `(target <= 50 ms), another country with the database warm ${ms(history.countryWarmMs)}, ` +
      `from memory ${ms(history.countryMemoMs)}`,
  );
  print(
    `/api/changes?since=7d (${history.changesCountries} countries): cold ${ms(history.changesColdMs)} ` +
      `(target <= 100 ms), from memory ${ms(history.changesMemoMs)}`,
  );
  print(
    `store size per year: ${mb(history.tableBytesPerYear)} in tables and indexes, ` +
      `${mb(history.bytesPerYear)} as the data directory on disk (with write-ahead log)`,
  );
}

async function printAsOf(): Promise<void> {
  print('(9) As of a batch, citable ids, backtests (issue 22): two years (1,460 batches), PGlite');
  const r = await runAsOfBench();
  print(
    `${r.batches} batches x ${r.countries} countries recorded in ${r.fillSeconds.toFixed(0)} s`,
  );
  print(
    `overview as of the oldest batch (countries, top-10 hotspots, What changed), medians of ` +
      `${r.runs} reopened stores: cold ${ms(r.overviewColdMs)}, again ${ms(r.overviewWarmMs)} ` +
      `(target <= 100 ms)`,
  );
  print(
    `backtest, ${r.backtestCountries} countries x 4 rules over two years (medians of ${r.runs}): ` +
      `without the warm-up ${ms(r.backtestColdMs)}; the background warm-up ` +
      `${ms(r.backtestWarmUpMs)}; a backtest after it ${ms(r.backtestWarmMs)} (target <= 500 ms)`,
  );
  print(
    `chain: verify ${ms(r.verifyMs)} (holds: ${String(r.verifyHolds)}); a store without ids ` +
      `opens in ${ms(r.backfillOpenMs)}, its ids given in the background by ${ms(r.backfillMs)}`,
  );
  print(
    `CPU time of the process, medians: ${Object.entries(r.cpuMedians)
      .map(([name, value]) => `${name} ${ms(value)}`)
      .join(', ')}`,
  );
  print(
    `load average after: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

const ms = (value: number): string => `${value.toFixed(1)} ms`;
const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(0)} MB`;
const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

async function printReplicas(): Promise<void> {
  print('(6) Replicas (issue 9): the team day of (2) replayed over HTTP through nginx');
  print('    (deploy/nginx-replicas.conf) in front of 1 and of 3 replica processes (dist/node,');
  print('    a fresh PostgreSQL database each), every process on a wall clock 480x faster');
  print('    (scripts/bench/warped-clock.mjs); upstream requests counted at the demo upstream');
  const postgres = await startPostgres();
  try {
    const runs: ReplicaTeamDayResult[] = [];
    for (const replicas of [1, 3]) {
      runs.push(await runReplicaTeamDay({ replicas, postgres, factor: 480 }));
    }
    print(
      `${'replicas'.padEnd(10)}${pad('upstream', 9)}${pad('max/hour', 9)}${pad('429s', 6)}` +
        `${pad('user errors', 12)}${pad('requests', 10)}${pad('hits', 7)}${pad('max lag', 9)}` +
        `${pad('wall s', 8)}  per hour`,
    );
    for (const run of runs) {
      print(
        `${String(run.replicas).padEnd(10)}${pad(run.upstreamTotal, 9)}` +
          `${pad(Math.max(...run.perHour.map((h) => h.upstream)), 9)}${pad(run.upstream429, 6)}` +
          `${pad(run.replay.userErrors.length, 12)}${pad(run.replay.requests, 10)}` +
          `${pad(run.replay.cache.HIT ?? 0, 7)}${pad(`${Math.round(run.replay.maxLagMs / 1000)} s`, 9)}` +
          `${pad((run.wallMs / 1000).toFixed(1), 8)}  ${run.perHour.map((h) => h.upstream).join(' ')}`,
      );
      for (const error of run.replay.userErrors.slice(0, 3)) {
        print(`  ! ${error.status} ${error.url}`);
      }
    }
    print('max lag: how late (virtual time) the latest visit was sent; wall s: with start-up.');
    print(
      `load average: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    print();
    const seconds = quick ? 3 : 10;
    const rounds = quick ? 1 : 3;
    print(
      `    Hit throughput of one BFF (dist/node/server/main.js, asked directly) without and with ` +
        `DATABASE_URL:`,
    );
    print(
      `    autocannon, 50 connections, ${seconds} s per run, median of ${rounds} alternating rounds`,
    );
    const rows = await runClusterHitThroughput(postgres, seconds, 50, rounds);
    print(
      `${'path'.padEnd(18)}${pad('alone req/s', 12)}${pad('p99 ms', 8)}${pad('µs CPU', 8)}` +
        `${pad('DATABASE_URL req/s', 20)}${pad('p99 ms', 8)}${pad('µs CPU', 8)}${pad('ratio', 7)}`,
    );
    for (const row of rows) {
      print(
        `${row.path.padEnd(18)}${pad(Math.round(row.alone.requests.average), 12)}` +
          `${pad(row.alone.latency.p99, 8)}${pad(row.alone.cpuMicrosPerRequest.toFixed(1), 8)}` +
          `${pad(Math.round(row.clustered.requests.average), 20)}` +
          `${pad(row.clustered.latency.p99, 8)}${pad(row.clustered.cpuMicrosPerRequest.toFixed(1), 8)}` +
          `${pad((row.clustered.requests.average / row.alone.requests.average).toFixed(2), 7)}`,
      );
      for (const run of [row.alone, row.clustered]) {
        if (run.non2xx > 0 || run.errors > 0) {
          print(`  ! ${run.non2xx} non-2xx answers, ${run.errors} errors`);
        }
      }
    }
    print(
      "µs CPU: the BFF process's CPU time (/proc) over answers sent; ratio: with over without.",
    );
    print();
    print(
      '    A miss another replica already fetched (two apps on one PostgreSQL, inject; median ms):',
    );
    const miss = await runReplicaMissBench();
    print(
      `taken from PostgreSQL ${miss.adoptedMs.toFixed(1)}, asked of the demo upstream ` +
        `(loopback, no DATABASE_URL) ${miss.upstreamMs.toFixed(1)}, hit ${miss.hitMs.toFixed(1)} ` +
        `(${miss.samples} samples)`,
    );
    for (const [url, [adopted, upstream, hit]] of Object.entries(miss.byUrl)) {
      print(
        `  ${url.padEnd(38)}${pad(adopted.toFixed(1), 7)}${pad(upstream.toFixed(1), 7)}${pad(hit.toFixed(1), 7)}`,
      );
    }
    print(
      `load average after: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await postgres.stop();
  }
}

async function printAlerts(): Promise<void> {
  print('(8) Alert evaluation: 2,000 watchlists x 100 countries x 5 rules (40 people x 50 lists),');
  print(
    '    one new demo batch, evaluated by the AlertEvaluator; extra memory = peak above before',
  );
  const postgres = await startPostgres();
  try {
    for (const url of [null, postgres.url]) {
      const run = await runAlertBench(url);
      print(
        `${run.store.padEnd(14)} ${run.alerts} alerts in ${run.seconds.toFixed(1)} s (target <= 10 s; ` +
          `${run.cpuSeconds.toFixed(1)} s CPU in this process); ` +
          `extra RSS ${run.extraRssMb.toFixed(0)} MB, heap ${run.extraHeapMb.toFixed(0)} MB ` +
          '(target <= 200 MB)',
      );
    }
    print(
      `load average after: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await postgres.stop();
  }
}

async function printSites(): Promise<void> {
  print(
    '(10) Sites at their limit (issue 20): import 20,000 sites (CSV), then /api/exposure over them,\n' +
      '   PGlite on disk with 90 days of demo batches',
  );
  const run = await runSitesBench();
  print(
    `import ${run.sites} sites: ${run.importSeconds.toFixed(2)} s (target <= 5 s; ` +
      `${run.importCpuSeconds.toFixed(2)} s CPU); the same file again (all unchanged): ` +
      `${run.reimportSeconds.toFixed(2)} s`,
  );
  print(
    `/api/exposure, ${run.sites} sites, trend of ${run.trendPoints} batches: cold ` +
      `${run.exposureColdMs.toFixed(0)} ms, warm median ${run.exposureWarmMs.toFixed(0)} ms (target <= 100 ms)`,
  );
  print(
    `site rule over the newest batch, ${run.sites} sites: ${run.siteRuleMs.toFixed(0)} ms ` +
      `(${run.siteRuleCpuSeconds.toFixed(2)} s CPU), ${run.siteRuleAlerts} alerts`,
  );
  print(
    `load average after: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

async function printSitesMap(): Promise<void> {
  print('(9b) Our sites on the map at 20,000 sites (issue 20): /api/sites/points and the first');
  print('    frame with the sites drawn, Chromium at 1440 x 900, the built app (npm run build)');
  const run = await runSitesMapBench();
  if (!run) {
    print('    dist/client is missing: run `npm run build` first');
    return;
  }
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
  print(
    `/api/sites/points, ${run.sites} sites: ${kb(run.pointsBytes.identity)} ` +
      `(gzip ${kb(run.pointsBytes.gzip)}, br ${kb(run.pointsBytes.br)}); /api/sites in pages ` +
      `of 2,000: ${kb(run.listBytes)}`,
  );
  run.loads.forEach((load, i) => {
    print(
      `    load ${i + 1}: first frame ${load.afterDataMs.toFixed(0)} ms after the last byte ` +
        `(${load.afterParsedMs.toFixed(0)} ms after the layer had the points; target <= 500 ms), ` +
        `fetch ${load.fetchMs.toFixed(0)} ms, ${kb(load.encodedBytes)} on the wire, ` +
        `${load.markers} markers`,
    );
  });
  const sorted = run.loads.map((l) => l.afterDataMs).sort((a, b) => a - b);
  print(
    `    median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(0)} ms, max ${sorted.at(-1)?.toFixed(0)} ms`,
  );
  print(
    `load average after: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

async function printHeavyRoutes(): Promise<void> {
  print('(11) Heavy routes (issue 29): one client does the heaviest legal thing on each route');
  print('    of `node dist/node/server/main.js` (demo mode, after its seed) while another reads');
  print("    /api/v1/hotspots (cached) every 50 ms; the BFF's event-loop delay from /metrics");
  print('    (grd_event_loop_delay_seconds). Targets: victim p99 <= 100 ms, loop p99 <= 50 ms.');
  // GRD_BENCH_CPU_PROF=<dir>: the BFF runs under --cpu-prof and writes its profile there.
  const profileDir = process.env.GRD_BENCH_CPU_PROF;
  const r = await runHeavyRoutes(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []);
  print(
    `ready (/readyz 200) ${r.readySeconds.toFixed(0)} s after start, ${r.notReadyAnswers} ` +
      'answers of 503 before it while the seed ran',
  );
  for (const s of r.scenarios) {
    const answers = Object.entries(s.answers)
      .map(([status, n]) => `${status}: ${n}`)
      .join(', ');
    print(`  ${s.name}`);
    print(
      `    heavy request ${ms(s.heavyMs)} (${answers}); victim ${s.victim.requests} answers, ` +
        `p50 ${s.victim.p50.toFixed(1)} ms, p99 ${s.victim.p99.toFixed(1)} ms, max ${s.victim.max.toFixed(1)} ms; ` +
        `loop delay p50 ${s.loop.p50.toFixed(1)} ms, p99 ${s.loop.p99.toFixed(1)} ms, max ${s.loop.max.toFixed(1)} ms`,
    );
    if (s.cpuStretches) {
      const longest = s.cpuStretches.map((c) => c.toFixed(1)).join(', ');
      print(`    longest CPU between two event-loop turns: ${longest} ms`);
    }
  }
  print(
    `load average: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

// `--heavy`: only the heavy routes (section 11; needs `npm run build`).
if (process.argv.includes('--heavy')) {
  print();
  await printHeavyRoutes();
  process.exit(0);
}

async function printHotPath(): Promise<void> {
  const seconds = quick ? 3 : 10;
  const rounds = quick ? 1 : 5;
  print('(12) The hot path (issue 35): the cached hotspot list (/api/v1/hotspots) from the BFF as');
  print('    `npm start` runs it (dist/node/server/main.js, demo mode, production defaults, SPA');
  print('    served) after its demo seed, beside bare node:http replaying its answer (headers and');
  print(
    `    bytes); autocannon, 50 connections, ${seconds} s per run, ${rounds} alternating rounds, identity and br`,
  );
  // GRD_BENCH_CPU_PROF=<dir>: the BFF runs under --cpu-prof and writes its profile there.
  const profileDir = process.env.GRD_BENCH_CPU_PROF;
  const nodeArgs = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const { rows, seedSeconds } = await runHotPath(seconds, 50, rounds, nodeArgs);
  print(`seeded in ${seedSeconds.toFixed(0)} s`);
  print(
    `${'encoding'.padEnd(10)}${pad('bytes', 7)}${pad('BFF req/s', 11)}${pad('bare req/s', 12)}` +
      `${pad('ratio', 7)}${pad('CPU µs/answer: BFF', 20)}${pad('bare', 6)}${pad('ratio', 7)}  rounds (BFF/bare req/s)`,
  );
  const med = (values: number[]): number => values.sort((a, b) => a - b)[values.length >> 1] ?? NaN;
  for (const row of rows) {
    const roundsText = row.bff
      .map((run, i) => `${Math.round(run.reqPerSec)}/${Math.round(row.bare[i]?.reqPerSec ?? NaN)}`)
      .join(' ');
    print(
      `${row.encoding.padEnd(10)}${pad(row.bytes, 7)}` +
        `${pad(Math.round(med(row.bff.map((r) => r.reqPerSec))), 11)}` +
        `${pad(Math.round(med(row.bare.map((r) => r.reqPerSec))), 12)}${pad(row.ratio.toFixed(2), 7)}` +
        `${pad(med(row.bff.map((r) => r.cpuMicros)).toFixed(1), 20)}` +
        `${pad(med(row.bare.map((r) => r.cpuMicros)).toFixed(1), 6)}${pad(row.cpuRatio.toFixed(2), 7)}  ${roundsText}`,
    );
    const failed = row.bff.reduce((n, run) => n + run.non2xx, 0);
    if (failed > 0) print(`  ! ${failed} BFF answers not 2xx or failed`);
  }
  print('ratio: median over rounds of BFF req/s / bare req/s (target >= 0.9 for both);');
  print('CPU µs/answer from /proc, its ratio bare over BFF.');
  print(
    `load average after: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

// `--hot-path`: only the hot path (section 12; needs `npm run build`).
if (process.argv.includes('--hot-path')) {
  print();
  await printHotPath();
  process.exit(0);
}

// `--sites-map`: only our sites on the map (section 9b; needs `npm run build`).
if (process.argv.includes('--sites-map')) {
  print();
  await printSitesMap();
  process.exit(0);
}

// `--sites`: only sites at their limit (section 10).
if (process.argv.includes('--sites')) {
  print();
  await printSites();
  process.exit(0);
}

// `--alerts`: only alert evaluation at 2,000 lists (section 8).
if (process.argv.includes('--alerts')) {
  print();
  await printAlerts();
  process.exit(0);
}

// `--replicas`: only the replicas (section 6).
if (process.argv.includes('--replicas')) {
  print();
  await printReplicas();
  process.exit(0);
}

// `--as-of`: only issue 22's figures (section 9).
if (process.argv.includes('--as-of')) {
  await printAsOf();
  process.exit(0);
}

// `--history`: only the history store (section 5), e.g. to compare two store layouts.
if (process.argv.includes('--history')) {
  await printHistory();
  process.exit(0);
}

async function printTeamIndex(): Promise<void> {
  print('(13) Team index (issue 31): two years of batches of every demo country, embedded PGlite');
  print('    on disk. The team index over every batch after each of three weight changes (compact');
  print('    batch_scores, a range of batches a statement, yielding), then the background filler');
  print(
    "    writing every batch's compact scores (what migration 0012 once did at start-up), each",
  );
  print(
    '    while a client asks for the overview over loopback HTTP without pause: the longest the',
  );
  print('    event loop was held (monitorEventLoopDelay; a 10 ms interval probe) and the slowest');
  print(
    '    answer. Then the overview as of a batch (countries, top 10, What changed) with the team',
  );
  print('    index beside the provider view, alternating rounds, warm, medians.');
  const bench = await runTeamIndexBench();
  const stalls = (s: Stalls) =>
    `event loop held at most ${s.loopMaxMs.toFixed(0)} ms (probe ${s.probeMaxMs.toFixed(0)} ms; ` +
    `target <= 50 ms); ${s.requests} overview answers meanwhile, slowest ${s.slowestRequestMs.toFixed(0)} ms`;
  print(
    `${bench.batches} batches × ${bench.countries} countries (${bench.points} points; filled in ` +
      `${Number.isNaN(bench.fillSeconds) ? 'an earlier run' : `${bench.fillSeconds.toFixed(0)} s`})`,
  );
  print(
    `recomputed in ${bench.recomputeMs.map((ms) => `${(ms / 1000).toFixed(2)} s`).join(', ')} ` +
      `(target <= 2 s); slowest store statement ${bench.slowestStatementMs.toFixed(1)} ms, ` +
      `slowest overview answer ${bench.recomputeAnswerMs.toFixed(1)} ms`,
  );
  print(`  ${stalls(bench.recomputeStalls)}`);
  print(
    `compact scores of every batch filled in the background in ` +
      `${(bench.scoresFill.workMs / 1000).toFixed(2)} s (slowest statement ` +
      `${bench.slowestFillMs.toFixed(1)} ms, slowest overview answer ${bench.fillAnswerMs.toFixed(1)} ms)`,
  );
  print(`  ${stalls(bench.scoresFill)}`);
  const ratio = bench.overviewTeamMs / bench.overviewProviderMs;
  print(
    `overview as of a batch (${bench.rounds} alternating rounds): provider ` +
      `${bench.overviewProviderMs.toFixed(2)} ms, team index ${bench.overviewTeamMs.toFixed(2)} ms ` +
      `(ratio ${ratio.toFixed(3)}; target within 10 %); load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' / ')}`,
  );
}

// `--team-index`: only the team index (section 13).
if (process.argv.includes('--team-index')) {
  await printTeamIndex();
  process.exit(0);
}

// `--browser`: only the browser timing (section 3), after `npm run build`.
if (process.argv.includes('--browser')) {
  print('(3) Browser timing (scripts/bench/browser.ts)');
  const { runBrowserBench } = await import('./browser.js');
  await runBrowserBench();
  process.exit(0);
}

// `--store-flood`: only the store-query flood (section 7).
if (process.argv.includes('--store-flood')) {
  print();
  await printStoreFlood();
  process.exit(0);
}

if (floodOnly) {
  print();
  await printFlood();
  process.exit(0);
}

/** Section (S): requests during `npm start`'s demo seed (issue 32, point 6). */
async function printStartUpStalls(): Promise<void> {
  print(
    '(S) Start-up: /api/v1/hotspots every 200 ms from listening until 3 s after /readyz says 200 ' +
      '(`npm start` on an empty DATA_DIR: the 90-day demo seed runs)',
  );
  const r = await runStartUpStalls();
  print(
    `listening after ${r.listenSeconds.toFixed(1)} s; ready after ${r.readySeconds?.toFixed(1) ?? 'never'} s more; ` +
      `${r.answers} answers, ${r.over100} over 100 ms (target 0), ${r.over200} over 200 ms, ${r.failed} not 200`,
  );
  print(
    `slowest: ${r.slowest.map((s) => `${Math.round(s.ms)} ms at ${s.atSeconds.toFixed(1)} s`).join(', ')}`,
  );
  print(
    `load average after: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

// `--inp`: only the phone interactions of section 3 (issue 32, point 7; needs `npm run build`).
if (process.argv.includes('--inp')) {
  print();
  print('(3) Interactions on a phone (scripts/bench/interaction.ts)');
  const { runInteractionsOnly } = await import('./browser.js');
  await runInteractionsOnly();
  process.exit(0);
}

// `--start-up`: only the start-up stalls (section S; needs `npm run build`).
if (process.argv.includes('--start-up')) {
  print();
  await printStartUpStalls();
  process.exit(0);
}

// `--lighthouse`: only the audit of the overview and a country page (issue 32), phone and desktop.
if (process.argv.includes('--lighthouse')) {
  print();
  print(
    '(L) Lighthouse 12.2.3, Debian Chromium, median of three; BFF as `npm start` after its seed',
  );
  const { figures } = await runLighthouse(['/', '/country/UKR']);
  print('page            profile  perf  a11y  best  LCP ms  TBT ms  CLS');
  for (const f of figures) {
    print(
      `${f.page.padEnd(15)} ${f.profile.padEnd(8)} ${pad(f.performance, 4)}  ${pad(f.accessibility, 4)}  ` +
        `${pad(f.bestPractices, 4)}  ${pad(Math.round(f.lcpMs), 6)}  ${pad(Math.round(f.tbtMs), 6)}  ${f.cls.toFixed(3)}` +
        (f.failedRuns.length > 0 ? `  (done again after ${f.failedRuns.join(', ')})` : ''),
    );
  }
  print(
    `load average after: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  process.exit(0);
}

const seconds = quick ? 3 : 10;
const rounds = quick ? 1 : 3;
print();
print(
  `(1) Cached answers: autocannon, 50 connections, ${seconds} s per run, median of ${rounds} ` +
    'alternating rounds; servers in their own processes',
);
const rows = await runThroughput(seconds, 50, rounds);
print(
  rows[0]?.compiled
    ? 'BFF: compiled dist/node (as npm start runs it)'
    : 'BFF: sources through tsx (no dist/node: run `npm run build:server` for the real figure)',
);
print(
  `${'path'.padEnd(18)}${pad('bytes', 8)}${pad('BFF req/s', 11)}${pad('p99 ms', 8)}` +
    `${pad('bare req/s', 12)}${pad('p99 ms', 8)}${pad('ratio', 7)}` +
    `${pad('CPU µs/answer: BFF', 20)}${pad('bare', 6)}${pad('ratio', 7)}` +
    `${pad('bare, 2 headers', 17)}`,
);
for (const row of rows) {
  print(
    `${row.path.padEnd(18)}${pad(row.bytes, 8)}${pad(Math.round(row.bff.requests.average), 11)}` +
      `${pad(row.bff.latency.p99, 8)}${pad(Math.round(row.bare.requests.average), 12)}` +
      `${pad(row.bare.latency.p99, 8)}${pad(row.ratio.toFixed(2), 7)}` +
      `${pad(row.bff.cpuMicrosPerRequest.toFixed(1), 20)}` +
      `${pad(row.bare.cpuMicrosPerRequest.toFixed(1), 6)}${pad(row.cpuRatio.toFixed(2), 7)}` +
      `${pad(Math.round(row.bareMinimal.requests.average), 17)}`,
  );
  if (row.bff.non2xx > 0 || row.bff.errors > 0) {
    print(`  ! ${row.bff.non2xx} non-2xx answers, ${row.bff.errors} errors`);
  }
}
print(
  "bare = node:http sending the BFF's exact answer (body and its headers); target ratio >= 0.7.",
);
print("CPU µs/answer: the server process's CPU time over answers sent (median round), which");
print('other load on the machine hardly moves; its ratio is bare over BFF.');

print();
print('(2) A team day: 50 analysts, overview + 15 countries an hour each, 8 h, Pro key (50/h),');
print('    one batch change (10:00 UTC), virtual clock; the real app driven by inject');
const day = await runTeamDay();
print(`${'hour (UTC)'.padEnd(12)}${pad('upstream requests', 18)}  by path`);
for (const hour of day.perHour) {
  const paths = Object.entries(hour.paths)
    .map(([path, n]) => `${path} ${n}`)
    .join(', ');
  print(`${hour.from.padEnd(12)}${pad(hour.upstream, 18)}  ${paths}`);
}
const worst = Math.max(...day.perHour.map((h) => h.upstream));
print(
  `${day.requests} requests to the BFF (${Object.entries(day.cache)
    .map(([k, v]) => `${k === 'none' ? 'uncached routes' : k} ${v}`)
    .join(', ')}); ${day.upstreamTotal} upstream requests in total, at most ${worst} in an hour ` +
    '(target <= 25)',
);
print(
  `429s: ${day.upstream429} (target 0); user-visible errors: ${day.userErrors.length} (target 0); ` +
    `stale answers: ${day.staleServes}; batches seen: ${day.asOfSeen.join(', ')}; ` +
    `simulated in ${(day.wallMs / 1000).toFixed(1)} s`,
);
for (const error of day.userErrors.slice(0, 5)) print(`  ! ${error.status} ${error.url}`);

print();
const browser = new URL('./browser.ts', import.meta.url);
if (existsSync(browser)) {
  print('(3) Browser timing (scripts/bench/browser.ts)');
  const mod = (await import(browser.href)) as { runBrowserBench?: () => Promise<void> };
  await mod.runBrowserBench?.();
} else {
  print('(3) Browser timing: scripts/bench/browser.ts not present, skipped');
}

print();
await printFlood();

print();
await printHistory();

print();
await printAsOf();

print();
await printReplicas();

print();
await printStoreFlood();

print();
await printAlerts();

print();
await printHotPath();

print();
await printTeamIndex();

print();
await printStartUpStalls();
