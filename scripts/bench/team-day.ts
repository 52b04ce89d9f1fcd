import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { startDemoUpstream } from '../../src/demo-upstream/server.js';
import { buildApp } from '../../src/server/compose/app.js';
import { parseConfig } from '../../src/server/config.js';
import { Secret } from '../../src/server/secret.js';

export interface TeamDayOptions {
  analysts: number;
  hours: number;
  countriesPerHour: number;
  /** Start of the working day (epoch ms); the default day holds the 10:00 UTC batch. */
  start: number;
  seed: number;
}

export interface TeamDayResult {
  options: TeamDayOptions;
  requests: number;
  perHour: Array<{ from: string; upstream: number; paths: Record<string, number> }>;
  upstreamTotal: number;
  upstream429: number;
  userErrors: Array<{ url: string; status: number }>;
  staleServes: number;
  cache: Record<string, number>;
  asOfSeen: string[];
  wallMs: number;
}

export const HOUR = 3_600_000;

/** mulberry32: a small seeded PRNG, so the simulated day is the same on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export interface Visit {
  at: number;
  analyst: number;
  urls: string[];
}

export const TEAM_DAY_DEFAULTS: TeamDayOptions = {
  analysts: 50,
  hours: 8,
  countriesPerHour: 15,
  start: Date.UTC(2026, 10, 23, 6, 0),
  seed: 20261123,
};

/** Deep links to countries that are not in the data: their 404 page is an answer, not an error. */
export const TEAM_DAY_ABSENT = new Set(['ATA', 'GRL']);

/**
 * The day's visits, in time order: each analyst opens the overview (status, hotspots, the
 * country list) and 15 country pages an hour, in random minutes, keeps the SPA's one-minute
 * status poll running, and now and then downloads an export. Seeded: the same every run. Shared
 * by the inject-driven bench below and the HTTP replay against replicas (team-day-http.ts).
 */
export function teamDayVisits(options: TeamDayOptions): Visit[] {
  const random = prng(options.seed);
  // Countries the analysts follow (all in the demo data), and two deep links to countries that
  // are not (the 404 page): an answer, not an error.
  const isos = ['UKR', 'SDN', 'MMR', 'FRA', 'DEU', 'USA', 'CHN', 'BRA', 'NGA', 'IND', 'ISR', 'PSE']
    .concat(['RUS', 'SYR', 'YEM', 'AFG', 'HTI', 'COD', 'MLI', 'VEN', 'MEX', 'COL', 'PAK', 'IRN'])
    .concat(['KOR', 'CIV', 'GBR', 'JPN', 'TUR', 'EGY', 'ETH', 'SOM', 'LBY', 'IRQ', 'LBN', 'ZAF']);
  const absent = TEAM_DAY_ABSENT;

  const visits: Visit[] = [];
  for (let hour = 0; hour < options.hours; hour++) {
    const from = options.start + hour * HOUR;
    for (let analyst = 0; analyst < options.analysts; analyst++) {
      const tiers = random() < 0.3 ? '&tier=crit%2Chigh' : '';
      visits.push({
        at: from + random() * HOUR,
        analyst,
        urls: [
          '/api/status',
          `/api/v1/hotspots?limit=${tiers ? 50 : 20}${tiers}`,
          '/api/countries',
        ],
      });
      for (let i = 0; i < options.countriesPerHour; i++) {
        const pick =
          random() < 0.02 ? [...absent][i % 2] : isos[Math.floor(random() * isos.length)];
        visits.push({ at: from + random() * HOUR, analyst, urls: [`/api/v1/country/${pick}`] });
      }
      for (let minute = 0; minute < 60; minute++) {
        visits.push({
          at: from + minute * 60_000 + random() * 60_000,
          analyst,
          urls: ['/api/status'],
        });
      }
      if (random() < 0.05) {
        const format = random() < 0.7 ? 'csv' : 'json';
        visits.push({
          at: from + random() * HOUR,
          analyst,
          urls: [`/api/v1/export?format=${format}`],
        });
      }
    }
  }
  visits.sort((a, b) => a.at - b.at);
  return visits;
}

/** The demo upstream's requests of each hour of the day, by path. */
export function upstreamByHour(
  log: ReadonlyArray<{ at: number; path: string }>,
  options: TeamDayOptions,
): TeamDayResult['perHour'] {
  return Array.from({ length: options.hours }, (_, hour) => {
    const from = options.start + hour * HOUR;
    const inHour = log.filter((e) => e.at >= from && e.at < from + HOUR);
    const paths: Record<string, number> = {};
    for (const e of inHour) {
      const key = e.path.startsWith('/api/v1/country/') ? '/api/v1/country/*' : e.path;
      paths[key] = (paths[key] ?? 0) + 1;
    }
    return { from: new Date(from).toISOString().slice(11, 16), upstream: inHour.length, paths };
  });
}

/** Whether an answer is what the analyst expected (200, or the 404 of an absent country). */
export function expectedAnswer(url: string, status: number): boolean {
  const iso = /country\/(\w+)/.exec(url)?.[1];
  return status === 200 || (status === 404 && iso !== undefined && TEAM_DAY_ABSENT.has(iso));
}

/**
 * A team's working day (teamDayVisits) against a Pro key (50 requests/hour), on a virtual clock
 * shared by the demo upstream and the BFF, so eight hours run in seconds. The real app is driven
 * by inject; background refreshes are awaited at the virtual moment they start.
 */
/**
 * `visits`: the requests to send, at their moments (default: the seeded day's). The replica
 * test passes the moments its replay really sent each request at, so that one BFF is judged on
 * the same day as the three replicas however late a busy machine sent them.
 */
export async function runTeamDay(
  partial: Partial<TeamDayOptions> = {},
  visits?: readonly Visit[],
): Promise<TeamDayResult> {
  const options: TeamDayOptions = { ...TEAM_DAY_DEFAULTS, ...partial };
  let now = options.start;
  const clock = () => now;
  const demo = await startDemoUpstream({ host: '127.0.0.1', port: 0, now: clock });
  const config = parseConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), 'grd-teamday-')) });
  const bff = await buildApp(config, {
    upstream: { mode: 'demo', baseUrl: demo.url, apiKey: new Secret(demo.issueKey('Pro')) },
    now: clock,
    logger: pino({ level: 'silent' }),
  });
  const started = Date.now();
  try {
    const day = visits ?? teamDayVisits(options);

    let requests = 0;
    let staleServes = 0;
    const cache: Record<string, number> = {};
    const userErrors: TeamDayResult['userErrors'] = [];
    const asOfSeen = new Set<string>();
    for (const visit of day) {
      now = Math.max(now, Math.floor(visit.at));
      for (const url of visit.urls) {
        const res = await bff.app.inject({
          method: 'GET',
          url,
          remoteAddress: `10.0.0.${visit.analyst + 1}`,
        });
        requests++;
        const xCache = String(res.headers['x-cache'] ?? 'none');
        cache[xCache] = (cache[xCache] ?? 0) + 1;
        if (!expectedAnswer(url, res.statusCode)) userErrors.push({ url, status: res.statusCode });
        if (res.headers['content-type']?.toString().startsWith('application/json')) {
          const body = res.json() as { stale?: boolean; as_of?: string };
          if (body.stale) staleServes++;
          if (body.as_of) asOfSeen.add(body.as_of);
        }
        await bff.upstreamIdle();
      }
    }

    const log = demo.requestLog();
    return {
      options,
      requests,
      perHour: upstreamByHour(log, options),
      upstreamTotal: log.length,
      upstream429: log.filter((e) => e.status === 429).length,
      userErrors,
      staleServes,
      cache,
      asOfSeen: [...asOfSeen].sort(),
      wallMs: Date.now() - started,
    };
  } finally {
    await bff.app.close();
    await demo.close();
  }
}
