// Memory budget of the BFF (issue 18): `node dist/node/server/main.js` in demo mode on an empty
// DATA_DIR (what `npm start` does on a first start: initdb, then 90 days of batches seeded) must
// idle at most 250 MB of RSS, the target. Runs on this machine measure 199-200 MB; without
// the quiet collection after the seed (src/server/release-memory.ts) 248-255 MB, with PGlite's
// default buffers 381 MB, before any tuning 613 MB. The process's RSS (VmRSS of /proc/<pid>/status)
// is sampled for SETTLE_MS after the seed and the sample watchlist are done; the budget applies to
// the last sample. The flood's 400 MB bound is checked by `npm run bench` (section 4).
// Prints the figures; exits 1 with a plain message when the budget is exceeded or the server
// cannot be measured. Plain Node ESM, no dependencies. Needs `npm run build` first.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const IDLE_BUDGET_MB = 250;
/**
 * A limit, not a wait: the check goes on as soon as the seed is done. The seed needs about 28 s of
 * CPU (95 s of wall time at load 8-10 on this 2-core machine); in the loaded run (issue 30: two
 * busy loops and the browser lane beside it, load 8-22) the process gets a tenth of a core or
 * less and the seed ran past 600 s. 30 min still ends a stuck seed well inside CI's 90.
 */
const SEED_TIMEOUT_MS = 30 * 60_000;
/** V8 gives back the heap pages the seed left behind over tens of seconds after it. */
const SETTLE_MS = 30_000;
const SAMPLE_MS = 500;

const main = fileURLToPath(new URL('../dist/node/server/main.js', import.meta.url));
const fail = (message) => {
  console.error(`Memory budget check failed: ${message}`);
  process.exitCode = 1;
};

if (!existsSync(main)) {
  fail('dist/node/server/main.js is missing; run `npm run build` first.');
} else {
  const dataDir = mkdtempSync(join(tmpdir(), 'grd-memory-'));
  try {
    await measure(dataDir);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
}

async function measure(dataDir) {
  const started = Date.now();
  // Demo mode: only what the check needs, no key or database of the caller's environment.
  const child = spawn(process.execPath, [main], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (chunk) => (output += chunk.toString()));
  let exited = false;
  const seeded = new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk.toString();
      if (/"msg":"demo watchlist (ready|could not be made)"/.test(output)) resolve();
    });
    child.on('exit', (code) => {
      exited = true;
      reject(
        new Error(`the server exited (${code}): ${output.trim().split('\n').slice(-3).join(' ')}`),
      );
    });
    setTimeout(
      () => reject(new Error(`no seeded history after ${SEED_TIMEOUT_MS / 1000} s`)),
      SEED_TIMEOUT_MS,
    ).unref();
  });
  try {
    await seeded;
    const seedSeconds = (Date.now() - started) / 1000;
    const samples = [];
    while (samples.length * SAMPLE_MS < SETTLE_MS) {
      await new Promise((done) => setTimeout(done, SAMPLE_MS));
      samples.push(rssMb(child.pid));
    }
    const idle = samples.at(-1);
    const peak = Math.max(...samples);
    console.log(
      `BFF (demo, first start, 90 days seeded in ${seedSeconds.toFixed(0)} s): RSS ${peak.toFixed(0)} MB ` +
        `just after the seed, ${idle.toFixed(0)} MB idle after ${SETTLE_MS / 1000} s ` +
        `(budget ${IDLE_BUDGET_MB} MB)`,
    );
    if (idle > IDLE_BUDGET_MB) {
      fail(`the BFF idles at ${idle.toFixed(0)} MB of RSS, over the ${IDLE_BUDGET_MB} MB budget.`);
    } else {
      console.log('Memory budget met.');
    }
  } catch (error) {
    fail(error.message);
  } finally {
    if (!exited) child.kill('SIGKILL');
  }
}
