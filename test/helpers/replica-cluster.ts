import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import {
  startDemoUpstream,
  type DemoUpstream,
  type DemoUpstreamOptions,
  type RequestLogEntry,
} from '../../src/demo-upstream/server.js';
import type { StatusResponse } from '../../src/shared/bff-api.js';
import { freePort } from './free-port.js';
import { startNginx, type Nginx } from './nginx.js';
import type { PostgresServer } from './postgres-server.js';

/*
 * N replicas of the production entry (dist/node/server/main.js, what `npm start` runs after the
 * build) as separate processes sharing one PostgreSQL database, one demo upstream in the test
 * process with a Pro key, and Debian's nginx in front with the deployment guide's configuration
 * (test/helpers/nginx.ts). Everything is on loopback ports, and everything is stopped by close(),
 * also when a test fails (and when the test process itself exits: no replica outlives it).
 */

export const MAIN_ENTRY = resolve(import.meta.dirname, '../../dist/node/server/main.js');
const WARPED_CLOCK = resolve(import.meta.dirname, '../../scripts/bench/warped-clock.mjs');

/** `/api/status`'s `cluster` part (issue 9's contract; null without DATABASE_URL). */
export interface ClusterStatus {
  replica: string;
  role: 'leader' | 'follower';
  leader: string | null;
  store: 'ok' | 'unreachable';
  ledger: 'shared' | 'fallback';
  replicas_seen: number;
}
export type ReplicaStatus = StatusResponse & { cluster?: ClusterStatus | null };

export interface Replica {
  name: string;
  /** http://127.0.0.1:<port>: the replica itself, not through nginx. */
  url: string;
  dataDir: string;
  running(): boolean;
  /** The current process's id. */
  pid(): number;
  /** The process's output (the newest 256 KB), for a failing test's message. */
  output(): string;
  /** Sends the signal and resolves when the process has exited. */
  kill(signal: NodeJS.Signals): Promise<void>;
  /** Starts the process again: same name, port, data directory and environment. */
  start(): Promise<void>;
}

export interface ClusterOptions {
  replicas: number;
  /** The PostgreSQL server the replicas share (a fresh database on it); null: no DATABASE_URL. */
  postgres: PostgresServer | null;
  /** Options of the in-process demo upstream (its `now`, `batchIntervalMs`). */
  demo?: DemoUpstreamOptions;
  /** The key's tier: Pro (50 an hour, the default), Team (100) or Enterprise (250). */
  keyTier?: 'Pro' | 'Team' | 'Enterprise';
  /** Variables added to every replica's environment (FRESH_SECONDS, LEADER_LEASE_SECONDS...). */
  env?: Record<string, string>;
  /**
   * A warped wall clock (scripts/bench/warped-clock.mjs) for every replica: it stands still at
   * `virtualStart` until startClock() is called.
   */
  clockWarp?: { virtualStart: number; factor: number };
}

export interface ReplicaCluster {
  demo: DemoUpstream;
  nginx: Nginx;
  replicas: Replica[];
  /** The replicas' DATABASE_URL; null when they run without one (embedded store each). */
  databaseUrl: string | null;
  /** nginx's address: what users reach. */
  url: string;
  replica(name: string): Replica;
  /** `/api/status` of one replica, asked directly. */
  status(replica: Replica): Promise<ReplicaStatus>;
  /** Statuses of the running replicas. */
  statuses(): Promise<ReplicaStatus[]>;
  /** GET through nginx (or directly from `replica`), answered with its status and JSON body. */
  get(path: string, replica?: Replica): Promise<{ status: number; body: unknown }>;
  /** The running replica whose status says it is the leader (polls until exactly one does). */
  leader(timeoutMs?: number): Promise<Replica>;
  /** Starts the warped clocks of the replicas at `realStart` (real epoch ms). */
  startClock(realStart: number): void;
  /** Output of every replica and nginx's error log: for a failing test's message. */
  diagnostics(): string;
  close(): Promise<void>;
}

/**
 * Polls `condition` every 100 ms until it holds, failing with `what` (and the cluster's
 * diagnostics, when given) after `timeoutMs`. A condition that throws counts as not yet.
 */
export async function waitUntil(
  what: string,
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 30_000,
  diagnostics?: () => string,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  let lastError: unknown = null;
  for (;;) {
    try {
      if (await condition()) return;
    } catch (error) {
      lastError = error;
    }
    if (performance.now() > deadline) {
      const cause = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(
        `Timed out after ${timeoutMs} ms waiting for ${what}${cause}` +
          (diagnostics ? `\n${diagnostics()}` : ''),
      );
    }
    await new Promise((done) => setTimeout(done, 100));
  }
}

/**
 * What the replicas asked the demo upstream, counted by status and path (with the query), and the
 * last few requests in order: whether the batch watch asked at all, and what it was told.
 */
function upstreamRequests(demo: DemoUpstream): string {
  const log = demo.requestLog();
  const counts = new Map<string, number>();
  const line = (e: RequestLogEntry): string =>
    `${e.status} ${e.method} ${e.path}${e.query ? `?${e.query}` : ''}`;
  for (const entry of log) counts.set(line(entry), (counts.get(line(entry)) ?? 0) + 1);
  return [
    `--- demo upstream: ${log.length} requests ---`,
    ...[...counts].map(([what, n]) => `${n} x ${what}`),
    'last ones:',
    ...log.slice(-8).map(line),
  ].join('\n');
}

/** Every replica process alive in this test process, killed if the test process exits early. */
const liveChildren = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of liveChildren) child.kill('SIGKILL');
});

const OUTPUT_KEEP = 256 * 1024;

function startReplicaProcess(
  name: string,
  port: number,
  env: Record<string, string>,
  warped: boolean,
): { child: ChildProcess; exited: Promise<void>; output: () => string } {
  const args = warped ? ['--import', WARPED_CLOCK, MAIN_ENTRY] : [MAIN_ENTRY];
  const child = spawn(process.execPath, args, {
    env,
    // An IPC channel only for the warped clock's start signal.
    stdio: warped ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  });
  liveChildren.add(child);
  let output = '';
  const keep = (chunk: Buffer): void => {
    output += chunk.toString();
    if (output.length > OUTPUT_KEEP) output = output.slice(-OUTPUT_KEEP);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((done) =>
    child.once('exit', () => {
      liveChildren.delete(child);
      done();
    }),
  );
  return { child, exited, output: () => `--- ${name} (port ${port}) ---\n${output}` };
}

async function createDatabase(serverUrl: string): Promise<string> {
  const name = `grd_cluster_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function answersHealthz(url: string): Promise<boolean> {
  const res = await fetch(`${url}/healthz`).catch(() => null);
  return res?.status === 200;
}

/**
 * Starts the cluster: the demo upstream, a fresh database, the replicas (all at once, against
 * the empty database: migrations must run once) until each answers `/healthz`, then nginx.
 * The bench uses it too (scripts/bench/replica-team-day.ts, replica-throughput.ts).
 */
export async function startReplicaCluster(options: ClusterOptions): Promise<ReplicaCluster> {
  if (!existsSync(MAIN_ENTRY)) {
    throw new Error(`${MAIN_ENTRY} is missing: the replica tests run the build (npm run build)`);
  }
  const cleanups: Array<() => Promise<void>> = [];
  const closeAll = async (): Promise<void> => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      await cleanup().catch(() => undefined);
    }
  };
  try {
    const demo = await startDemoUpstream({ host: '127.0.0.1', port: 0, ...options.demo });
    cleanups.push(() => demo.close());
    const key = demo.issueKey(options.keyTier ?? 'Pro');
    const databaseUrl = options.postgres ? await createDatabase(options.postgres.url) : null;

    const replicas: Replica[] = [];
    // Set by startClock(): a replica (re)started later is told the same moment.
    const clock: { realStart: number | null } = { realStart: null };
    const children = new Map<string, ReturnType<typeof startReplicaProcess>>();
    for (let i = 1; i <= options.replicas; i++) {
      const name = `r${i}`;
      // Chosen again when a first start finds it taken (see `start`); a restart keeps it.
      let port = await freePort();
      const dataDir = mkdtempSync(join(tmpdir(), `grd-${name}-`));
      const env: Record<string, string> = {
        PATH: process.env.PATH ?? '',
        HOST: '127.0.0.1',
        PORT: String(port),
        DATA_DIR: dataDir,
        RISK_API_BASE_URL: demo.url,
        RISK_API_KEY: key,
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        REPLICA_NAME: name,
        TRUSTED_PROXY_ADDRESSES: '127.0.0.1',
        WEBHOOK_ALLOW_PRIVATE: '1',
        LEADER_LEASE_SECONDS: '5',
        ...(options.clockWarp
          ? { CLOCK_WARP: `${options.clockWarp.virtualStart}:${options.clockWarp.factor}` }
          : {}),
        ...options.env,
      };
      const startOnce = async (): Promise<'listening' | 'port taken'> => {
        const running = children.get(name);
        if (running && running.child.exitCode === null && running.child.signalCode === null) {
          throw new Error(`${name} is already running`);
        }
        env.PORT = String(port);
        const started = startReplicaProcess(name, port, env, options.clockWarp !== undefined);
        children.set(name, started);
        if (clock.realStart !== null) started.child.send?.({ clockStart: clock.realStart });
        const exited = (): boolean =>
          started.child.exitCode !== null || started.child.signalCode !== null;
        // Its own banner, not an answer on the port: between freePort() and the bind, another
        // process on this shared machine may take the port and answer /healthz in its place.
        const banner = `Global Risk Dashboard at http://127.0.0.1:${port}`;
        await waitUntil(
          `${name} to listen on port ${port}`,
          () => exited() || started.output().includes(banner),
          60_000,
          started.output,
        );
        if (exited() && /EADDRINUSE/.test(started.output())) return 'port taken';
        if (exited()) throw new Error(`${name} exited during start-up:\n${started.output()}`);
        await waitUntil(`${name} to answer /healthz`, () => answersHealthz(url()), 60_000);
        return 'listening';
      };
      let firstStart = true;
      const start = async (): Promise<void> => {
        // Before nginx knows the address, a taken port is exchanged for another (three tries).
        for (let attempt = 1; ; attempt++) {
          const outcome = await startOnce();
          if (outcome === 'listening') break;
          if (!firstStart || attempt === 3) {
            throw new Error(`${name}: port ${port} is taken:\n${current().output()}`);
          }
          port = await freePort();
        }
        firstStart = false;
      };
      const url = (): string => `http://127.0.0.1:${port}`;
      const current = () => {
        const running = children.get(name);
        if (!running) throw new Error(`${name} never started`);
        return running;
      };
      replicas.push({
        name,
        get url() {
          return url();
        },
        dataDir,
        running: () => {
          const { child } = current();
          return child.exitCode === null && child.signalCode === null;
        },
        pid: () => current().child.pid ?? 0,
        output: () => current().output(),
        kill: async (signal) => {
          const { child, exited } = current();
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          await exited;
        },
        start,
      });
      cleanups.push(async () => {
        const running = children.get(name);
        if (running && running.child.exitCode === null && running.child.signalCode === null) {
          running.child.kill('SIGTERM');
          const killLater = setTimeout(() => running.child.kill('SIGKILL'), 10_000);
          await running.exited;
          clearTimeout(killLater);
        }
        rmSync(dataDir, { recursive: true, force: true });
      });
    }
    // All at once, as an orchestrator starts a deployment: one of them applies the migrations.
    await Promise.all(replicas.map((replica) => replica.start()));

    const nginx = await startNginx(replicas.map((r) => r.url.replace('http://', '')));
    cleanups.push(() => nginx.close());

    // The last lines of each process: enough to see why, short enough to read in a failure.
    const tail = (text: string): string => text.split('\n').slice(-40).join('\n');
    const diagnostics = (): string =>
      [
        '--- last status seen ---',
        // A stopped replica's line is what it said before it stopped (issue 30 read a killed
        // leader's last status as a second leader): say so.
        ...[...lastSeen].map(([name, seen]) =>
          replicas.find((r) => r.name === name)?.running() === false
            ? `${name} (stopped; as last seen before): ${seen}`
            : `${name}: ${seen}`,
        ),
        ...replicas.map((r) => tail(r.output())),
        `--- nginx ---\n${tail(nginx.errorLog())}`,
        upstreamRequests(demo),
      ].join('\n');
    const byName = (name: string): Replica => {
      const found = replicas.find((r) => r.name === name);
      if (!found) throw new Error(`no replica named ${name}`);
      return found;
    };
    // The newest status seen of each replica: the first thing a failing test's message shows.
    const lastSeen = new Map<string, string>();
    const status = async (replica: Replica): Promise<ReplicaStatus> => {
      const res = await fetch(`${replica.url}/api/status`);
      if (res.status !== 200) throw new Error(`${replica.name} /api/status: ${res.status}`);
      const body = (await res.json()) as ReplicaStatus;
      lastSeen.set(
        replica.name,
        // What a stuck batch watch is read by: when the batch was last confirmed and is next
        // due, the upstream's health and the budget left (the demo's frozen clock keeps every
        // request in one quota hour).
        JSON.stringify({
          seen_at: new Date().toISOString(),
          as_of: body.as_of,
          history: body.history?.latest,
          last_checked_at: body.last_checked_at,
          next_check_at: body.next_check_at,
          upstream: body.upstream.health,
          last_error: body.upstream.last_error?.message ?? null,
          quota: body.quota,
          cluster: body.cluster,
        }),
      );
      return body;
    };
    const statuses = (): Promise<ReplicaStatus[]> =>
      Promise.all(replicas.filter((r) => r.running()).map(status));

    return {
      demo,
      nginx,
      replicas,
      databaseUrl,
      url: nginx.url,
      replica: byName,
      status,
      statuses,
      get: async (path, replica) => {
        const res = await fetch(`${replica?.url ?? nginx.url}${path}`);
        const text = await res.text();
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // Not JSON (a CSV export, nginx's own error page): the text is the body.
        }
        return { status: res.status, body };
      },
      leader: async (timeoutMs = 30_000) => {
        const found: { leader: Replica | null } = { leader: null };
        await waitUntil(
          'exactly one replica to report role "leader"',
          async () => {
            const running = replicas.filter((r) => r.running());
            const roles = await Promise.all(running.map(status));
            const leaders = running.filter((_, i) => roles[i]?.cluster?.role === 'leader');
            found.leader = leaders.length === 1 ? (leaders[0] ?? null) : null;
            return found.leader !== null;
          },
          timeoutMs,
          diagnostics,
        );
        if (!found.leader) throw new Error('no leader');
        return found.leader;
      },
      startClock: (realStart) => {
        clock.realStart = realStart;
        for (const child of children.values()) child.child.send?.({ clockStart: realStart });
      },
      diagnostics,
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
