import { spawn } from 'node:child_process';

export interface EntryRun {
  code: number | null;
  /** stdout and stderr interleaved, as a person at the terminal would see them. */
  output: string;
}

/**
 * Runs one of our entry points (a `.ts` file, through tsx instead of a build) as a child process
 * with only PATH and the given variables, calling `onOutput` as output arrives; `stop()` sends
 * SIGTERM. A process still running after `timeoutMs` is killed.
 */
export function runEntry(
  entry: string,
  options: {
    args?: string[];
    env?: Record<string, string>;
    onOutput?: (output: string, stop: () => void) => void;
    timeoutMs?: number;
  } = {},
): Promise<EntryRun> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', entry, ...(options.args ?? [])], {
      env: { PATH: process.env.PATH ?? '', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      options.onOutput?.(output, () => child.kill('SIGTERM'));
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, output });
    });
  });
}
