import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A throwaway PostgreSQL cluster for the store tests: initdb in a temporary directory, the server
 * on a free loopback port, stopped with SIGTERM and removed afterwards. PostgreSQL refuses to run
 * as root, so as root the cluster belongs to the `postgres` user and runs through `runuser`.
 */
export interface PostgresServer {
  url: string;
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

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  await new Promise<void>((done) => server.close(() => done()));
  if (typeof address !== 'object' || !address) throw new Error('no free port');
  return address.port;
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

  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      // runuser forwards SIGTERM to postgres: a "smart" shutdown, then the directory goes.
      if (server.exitCode === null) server.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
