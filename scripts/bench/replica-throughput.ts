import { readFileSync } from 'node:fs';
import type { PostgresServer } from '../../test/helpers/postgres-server.js';
import { startReplicaCluster, type ReplicaCluster } from '../../test/helpers/replica-cluster.js';
import { measureRun, median, medianCpu, type Run } from './throughput.js';

export type HitRun = Run;

export interface HitThroughputRow {
  path: string;
  /** The production entry without DATABASE_URL (embedded store). */
  alone: HitRun;
  /** The same entry with DATABASE_URL (cluster mode, a cluster of one). */
  clustered: HitRun;
}

/** Linux: a process's CPU time (user + system) so far, in µs, from /proc/<pid>/stat. */
function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces, so split after its closing paren).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15)
  return (ticks * 1e6) / 100; // USER_HZ is 100 on Linux
}

function measure(cluster: ReplicaCluster, path: string, seconds: number, connections: number) {
  const replica = cluster.replicas[0]!;
  const pid = replica.pid();
  return measureRun(replica.url + path, () => cpuMicros(pid), seconds, connections);
}

/** The round with the median throughput, with the median CPU per answer of all rounds. */
const medianOf = (runs: HitRun[]): HitRun => ({
  ...median(runs),
  cpuMicrosPerRequest: medianCpu(runs),
});

/**
 * Hit throughput of one BFF (the production entry, dist/node/server/main.js) without and with
 * DATABASE_URL: the method of throughput.ts (autocannon from this process, the server in its
 * own, median of alternating rounds after a discarded warm-up, the server's CPU per answer),
 * asked directly (no nginx), for cached answers only: cluster mode must cost a hit nothing.
 */
export async function runClusterHitThroughput(
  postgres: PostgresServer,
  seconds: number,
  connections: number,
  rounds: number,
): Promise<HitThroughputRow[]> {
  const alone = await startReplicaCluster({ replicas: 1, postgres: null });
  try {
    const clustered = await startReplicaCluster({ replicas: 1, postgres });
    try {
      const rows: HitThroughputRow[] = [];
      for (const path of ['/api/v1/hotspots', '/api/countries']) {
        for (const cluster of [alone, clustered]) {
          // The one miss, then a check that what is measured is a hit.
          await cluster.get(path, cluster.replicas[0]);
          const res = await fetch(cluster.replicas[0]!.url + path);
          if (res.headers.get('x-cache') !== 'HIT') throw new Error(`${path} is not a hit`);
          await measure(cluster, path, 2, connections); // warm-up, discarded
        }
        const aloneRuns: HitRun[] = [];
        const clusteredRuns: HitRun[] = [];
        for (let round = 0; round < rounds; round++) {
          aloneRuns.push(await measure(alone, path, seconds, connections));
          clusteredRuns.push(await measure(clustered, path, seconds, connections));
        }
        rows.push({ path, alone: medianOf(aloneRuns), clustered: medianOf(clusteredRuns) });
      }
      return rows;
    } finally {
      await clustered.close();
    }
  } finally {
    await alone.close();
  }
}
