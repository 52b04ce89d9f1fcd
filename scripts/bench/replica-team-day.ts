import type { RequestLogEntry } from '../../src/demo-upstream/server.js';
import type { PostgresServer } from '../../test/helpers/postgres-server.js';
import { startReplicaCluster } from '../../test/helpers/replica-cluster.js';
import {
  TEAM_DAY_DEFAULTS,
  teamDayVisits,
  upstreamByHour,
  type TeamDayOptions,
  type TeamDayResult,
} from './team-day.js';
import { replayTeamDay, type ReplayResult } from './team-day-http.js';
import { warpedNow, type Warp } from './warped-clock.mjs';

export interface ReplicaTeamDayResult {
  replicas: number;
  factor: number;
  replay: ReplayResult;
  perHour: TeamDayResult['perHour'];
  upstreamTotal: number;
  upstream429: number;
  /** Real time for the whole run, start-up of the processes included. */
  wallMs: number;
}

/**
 * The bench's team day (teamDayVisits: 50 analysts, 8 hours, the same seed) through nginx in
 * front of `replicas` replica processes on one PostgreSQL database, on a wall clock running
 * `factor` times faster in every process (scripts/bench/warped-clock.mjs explains why that is a
 * sound stand-in for the bench's shared virtual clock). Upstream requests are counted at the demo
 * upstream; user errors are answers an analyst would see as a failure.
 */
export async function runReplicaTeamDay(options: {
  replicas: number;
  postgres: PostgresServer;
  factor: number;
  day?: Partial<TeamDayOptions>;
}): Promise<ReplicaTeamDayResult> {
  const started = performance.now();
  const day: TeamDayOptions = { ...TEAM_DAY_DEFAULTS, ...options.day };
  const warp: Warp = { virtualStart: day.start, factor: options.factor, realStart: null };
  const now = warpedNow(warp, Date.now);
  const cluster = await startReplicaCluster({
    replicas: options.replicas,
    postgres: options.postgres,
    demo: { now },
    clockWarp: { virtualStart: day.start, factor: options.factor },
  });
  try {
    // Every process is up (its clock standing at 06:00): the day starts for all at once.
    const realStart = Date.now() + 100;
    warp.realStart = realStart;
    cluster.startClock(realStart);
    const replay = await replayTeamDay({
      baseUrl: cluster.url,
      visits: teamDayVisits(day),
      now,
      factor: options.factor,
      clientAddress: (analyst) => `127.0.0.${analyst + 2}`,
    });
    // Every request of the day, including those of visits the machine sent late (past 14:00).
    const log: ReadonlyArray<RequestLogEntry> = cluster.demo.requestLog();
    return {
      replicas: options.replicas,
      factor: options.factor,
      replay,
      perHour: upstreamByHour(log, day),
      upstreamTotal: log.length,
      upstream429: log.filter((e) => e.status === 429).length,
      wallMs: performance.now() - started,
    };
  } catch (error) {
    throw new Error(
      `${error instanceof Error ? error.message : String(error)}\n${cluster.diagnostics()}`,
      { cause: error },
    );
  } finally {
    await cluster.close();
  }
}
