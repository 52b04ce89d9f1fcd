import { spawn, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from './free-port.js';

/** The deployment guide's nginx configuration (docs/deployment.md shows this file). */
export const DEPLOY_NGINX_CONF = resolve(import.meta.dirname, '../../deploy/nginx-replicas.conf');
const NGINX = '/usr/sbin/nginx';

export interface Nginx {
  /** http://127.0.0.1:<port> */
  url: string;
  /** nginx's error log so far (for a failing test's message). */
  errorLog(): string;
  close(): Promise<void>;
}

/**
 * The deployment file with its two placeholders filled in: where to listen, and one `server`
 * line per replica. Nothing else is changed.
 */
export function deploymentConfig(listen: string, replicas: string[]): string {
  const text = readFileSync(DEPLOY_NGINX_CONF, 'utf8');
  const serverLine = /^(\s*)server \{\{REPLICA\}\}(.*)$/m;
  const match = serverLine.exec(text);
  if (!match || !text.includes('{{LISTEN}}')) {
    throw new Error(`${DEPLOY_NGINX_CONF} lost its {{LISTEN}} or "server {{REPLICA}}" line`);
  }
  const servers = replicas.map((address) => `${match[1]}server ${address}${match[2]}`).join('\n');
  return text.replace(serverLine, servers).replaceAll('{{LISTEN}}', listen);
}

/**
 * Debian's nginx in the foreground (`daemon off`) with the deployment file included from a
 * minimal main configuration whose pid, logs and temporary paths all live in a temporary
 * directory, on a free loopback port. As root its workers run as `nobody`, so the directory is
 * readable by all (it holds nothing secret).
 */
export async function startNginx(replicas: string[]): Promise<Nginx> {
  if (!existsSync(NGINX)) {
    throw new Error(`No nginx at ${NGINX}: run node scripts/ensure-debian-package.mjs nginx`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'grd-nginx-'));
  chmodSync(dir, 0o755);
  mkdirSync(join(dir, 'temp'));
  const port = await freePort();
  writeFileSync(join(dir, 'grd-replicas.conf'), deploymentConfig(`127.0.0.1:${port}`, replicas));
  const errorLog = join(dir, 'error.log');
  writeFileSync(
    join(dir, 'nginx.conf'),
    [
      'worker_processes 1;',
      'events { worker_connections 1024; }',
      'http {',
      '    access_log off;',
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
        (kind) => `    ${kind}_temp_path ${join(dir, 'temp', kind)};`,
      ),
      `    include ${join(dir, 'grd-replicas.conf')};`,
      '}',
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(
    NGINX,
    [
      '-p',
      `${dir}/`,
      '-e',
      errorLog,
      '-c',
      join(dir, 'nginx.conf'),
      '-g',
      `daemon off; pid ${join(dir, 'nginx.pid')};`,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  // nginx runs in the foreground as our child: never leave it behind if the test process exits.
  const killOnExit = (): void => void child.kill('SIGKILL');
  process.once('exit', killOnExit);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((done) =>
    child.once('exit', () => {
      process.removeListener('exit', killOnExit);
      done();
    }),
  );
  const readLog = (): string =>
    stderr + (existsSync(errorLog) ? readFileSync(errorLog, 'utf8') : '');

  // Up when it accepts a connection (any answer, even a 502 while no replica is up yet).
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited at start-up:\n${readLog()}`);
    const answered = await fetch(`${url}/healthz`).then(
      () => true,
      () => false,
    );
    if (answered) break;
    await Promise.race([exited, new Promise((done) => setTimeout(done, 50))]);
  }
  return {
    url,
    errorLog: readLog,
    close: async () => {
      // SIGQUIT: a graceful stop (workers finish their requests).
      if (child.exitCode === null) child.kill('SIGQUIT');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
