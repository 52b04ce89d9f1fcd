import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';

// How the embedded store is created and tuned, for memory (issue 18; figures in
// docs/benchmarks.md, section "Memory"). PGlite's defaults cost the BFF 285–800 MB of RSS.

/**
 * PGlite's own start parameters (its defaultStartParams, which `startParams` replaces whole),
 * plus the buffer sizes. shared_buffers is PostgreSQL's page cache: PGlite's default of 128 MB is
 * written at start-up, so it is resident from the first second; 8 MB holds the pages the BFF
 * reads (its answers are memoised above the store) and saves about 140 MB.
 */
export const PGLITE_START_PARAMS: readonly string[] = [
  '--single',
  '-F',
  '-O',
  '-j',
  '-c',
  'search_path=public',
  '-c',
  'exit_on_error=false',
  '-c',
  'log_checkpoints=false',
  '-c',
  'max_worker_processes=0',
  '-c',
  'max_parallel_workers=0',
  '-c',
  'max_parallel_workers_per_gather=0',
  '-c',
  'io_method=sync',
  '-c',
  'max_parallel_maintenance_workers=0',
  '-c',
  'shared_buffers=8MB',
];

/**
 * PostgreSQL compiled to WebAssembly is 9 MB of code: V8 compiles it all with its baseline
 * compiler and then again, function by function, with its optimising one, keeping both and the
 * optimiser's working memory (about 45 MB more). Baseline only costs queries some speed, not
 * answers: they are memoised above the store. Set before PGlite compiles its module; it
 * touches only WebAssembly, which nothing else in the BFF compiles.
 */
const BASELINE_WASM_ONLY = '--liftoff-only';

/**
 * Opens PGlite in `dir` (null: in memory, for tests), tuned for memory. An in-memory store
 * starts from `template` (a dumped data directory) when given: tests skip initdb that way.
 */
export async function createPglite(dir: string | null, template?: Blob): Promise<PGlite> {
  setFlagsFromString(BASELINE_WASM_ONLY);
  const options: PGliteOptions = { startParams: [...PGLITE_START_PARAMS] };
  if (dir === null)
    return PGlite.create(template ? { ...options, loadDataDir: template } : options);
  // initdb (a first start) runs in two more WebAssembly instances whose memory PGlite never lets
  // go (about 500 MB): run it in a child process that exits, then open the folder it made.
  if (!existsSync(join(dir, 'PG_VERSION'))) await initdbInChild(dir, options);
  return PGlite.create(dir, options);
}

// CommonJS, so that the child needs no file of ours: the path is resolved here, in the parent.
// A failure is written as one JSON line (PGlite's file-system errors carry only a number), so the
// parent can name it in words as it would its own.
const INITDB = `require(process.argv[1]).PGlite.create(process.argv[2], JSON.parse(process.argv[3]))
  .then((db) => db.close())
  .catch((e) => {
    const { name, errno, code, message } = e ?? {};
    process.stderr.write('\\n' + JSON.stringify({ name, errno, code, message }) + '\\n');
    process.exit(1);
  })`;

/** The child's error as it was thrown there (name, errno, code, message), or null. */
function childError(stderr: string): Error | null {
  const last = stderr.trim().split('\n').at(-1) ?? '';
  try {
    const fields = JSON.parse(last) as {
      name?: string;
      errno?: number;
      code?: string;
      message?: string;
    };
    return Object.assign(new Error(fields.message ?? ''), fields);
  } catch {
    return null;
  }
}

function initdbInChild(dir: string, options: PGliteOptions): Promise<void> {
  const pglite = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const child = spawn(process.execPath, ['-e', INITDB, pglite, dir, JSON.stringify(options)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    if (stderr.length < 4_000) stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else {
        const thrown = childError(stderr);
        if (thrown) return reject(thrown);
        const why = stderr.trim().split('\n').slice(-3).join(' ') || `exit ${code ?? signal}`;
        reject(new Error(`Could not create the history store in ${dir}: ${why}`));
      }
    });
  });
}
