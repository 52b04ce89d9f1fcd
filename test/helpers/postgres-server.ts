import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

/**
 * A throwaway PostgreSQL cluster for the store tests: initdb in a temporary directory, the server
 * on a free loopback port, stopped with SIGTERM and removed afterwards. PostgreSQL refuses to run
 * as root, so as root the cluster belongs to the `postgres` user and runs through `runuser`.
 */
export interface PostgresServer {
  url: string;
  /**
   * Stops the server for a while (a "fast" shutdown: sessions are cut, as when a database host
   * goes away); `resume()` starts it again on the same port and data directory.
   */
  pause(): Promise<void>;
  resume(): Promise<void>;
  stop(): Promise<void>;
}

const ROOT = '/usr/lib/postgresql';

function binDir(): string {
  const versions = existsSync(ROOT)
    ? readdirSync(ROOT).filter((v) => existsSync(`${ROOT}/${v}/bin/postgres`))
    : [];
  const newest = versions.sort().at(-1);
  if (!newest) {
    throw new Error(
      `No PostgreSQL server under ${ROOT}: run node scripts/ensure-debian-package.mjs postgresql`,
    );
  }
  return `${ROOT}/${newest}/bin`;
}

function asPostgres(command: string, args: string[]): [string, string[]] {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  return root ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

export async function startPostgres(): Promise<PostgresServer> {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'grd-pg-'));
  if (typeof process.getuid === 'function' && process.getuid() === 0) {
    const ids = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const gids = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    chownSync(dir, Number(ids.stdout.trim()), Number(gids.stdout.trim()));
  }
  const data = join(dir, 'data');
  const [initCmd, initArgs] = asPostgres(`${bin}/initdb`, [
    '-D',
    data,
    '-A',
    'trust',
    '-U',
    'postgres',
    '--no-sync',
  ]);
  const init = spawnSync(initCmd, initArgs, { encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);

  const port = await freePort();
  let running = await launch(bin, dir, data, port);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    pause: async () => {
      // SIGINT to the postmaster itself (its pid is the first line of postmaster.pid): a fast
      // shutdown that disconnects clients; a smart one (SIGTERM) would wait for them forever.
      const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
      process.kill(pid, 'SIGINT');
      await running.exited;
    },
    resume: async () => {
      if (running.server.exitCode === null) throw new Error('PostgreSQL is already running');
      running = await launch(bin, dir, data, port);
    },
    stop: async () => {
      // runuser forwards SIGTERM to postgres: a "smart" shutdown, then the directory goes.
      if (running.server.exitCode === null) running.server.kill('SIGTERM');
      await running.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function launch(
  bin: string,
  dir: string,
  data: string,
  port: number,
): Promise<{ server: ChildProcess; exited: Promise<void> }> {
  const [cmd, args] = asPostgres(`${bin}/postgres`, [
    '-D',
    data,
    '-p',
    String(port),
    '-k',
    dir,
    '-h',
    '127.0.0.1',
    '-c',
    'fsync=off',
  ]);
  const server: ChildProcess = spawn(cmd, args, { stdio: 'ignore' });
  const exited = new Promise<void>((done) => server.once('exit', () => done()));

  // Wait until it accepts connections (pg_isready exits 0), or fail if the server died.
  for (;;) {
    if (server.exitCode !== null) throw new Error('PostgreSQL exited during start-up');
    const ready = spawnSync(`${bin}/pg_isready`, ['-h', '127.0.0.1', '-p', String(port)]);
    if (ready.status === 0) break;
    await Promise.race([exited, new Promise((done) => setTimeout(done, 100))]);
  }
  return { server, exited };
}
