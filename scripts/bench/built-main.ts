import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface BuiltMain {
  url: string;
  child: ChildProcess;
  dataDir: string;
  /** From spawn to the line awaited. */
  seconds: number;
}

/**
 * What `npm start` runs (`dist/node/server/main.js`, demo mode, production defaults) on an empty
 * DATA_DIR named `prefix…`; resolves once it listens and, with `until`, once a log line's `msg`
 * matches it (the demo seed's steps say when they are done).
 */
export function startBuiltMain(
  prefix: string,
  options: { until?: RegExp; nodeArgs?: string[] } = {},
): Promise<BuiltMain> {
  const started = performance.now();
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), 'dist/node/server/main.js'], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /"msg":"Server listening at (http:[^"]+)"/.exec(output)?.[1];
      const done = options.until ? new RegExp(`"msg":"${options.until.source}"`) : null;
      if (url && (done === null || done.test(output))) {
        child.stdout?.removeAllListeners('data');
        child.stdout?.resume();
        resolve({ url, child, dataDir, seconds: (performance.now() - started) / 1000 });
      }
    });
    child.on('exit', (code) => reject(new Error(`the BFF exited (${code})`)));
  });
}
