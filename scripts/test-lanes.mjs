// The tests `npm test` runs after the static checks (which build `dist/`), in two lanes at once:
//   - browser: the Chromium tests (test:e2e), one file at a time;
//   - node: the unit tests (test:unit), then the replicas (test:replicas), then the budgets
//     (test:budget).
// Why two lanes: measured on this project's 2-core machine, each phase alone leaves part of the
// machine idle (the browser tests keep about 1.4 cores busy, most of it Chromium waiting on
// itself; the replica tests 0.6 and the memory budget 0.3 while they wait on timers, PostgreSQL
// and a 90-day seed), so one after another the run took 14.5 min for about 10 min of CPU work.
// The Debian parts are installed first, one at a time (apt-get holds one lock).
// Every line a lane prints is prefixed with its name; a lane goes on when the other fails; the
// exit code is 1 when any step failed, after both lanes have finished. A failed step's own
// account (vitest's "Failed Tests" part, or the step's last lines) is printed again at the very
// end: a CI log that keeps only its tail still names what failed. Plain Node ESM, no
// dependencies.
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';

const PACKAGES = ['postgresql', 'nginx', 'chromium', 'poppler-utils'];

const LANES = {
  browser: [{ name: 'test:e2e', command: 'npx vitest run --config vitest.e2e.config.ts' }],
  node: [
    { name: 'test:unit', command: 'npx vitest run' },
    { name: 'test:replicas', command: 'npx vitest run --config vitest.replicas.config.ts' },
    {
      name: 'test:budget',
      command: 'node scripts/check-budgets.mjs && node scripts/check-memory-budget.mjs',
    },
  ],
};

for (const name of PACKAGES) {
  const installed = spawnSync('node', ['scripts/ensure-debian-package.mjs', name], {
    stdio: 'inherit',
  });
  if (installed.status !== 0) process.exit(1);
}

/** How many lines of a failed step's account are printed again at the end, at most. */
const ACCOUNT_LINES = 200;
/** A failed step that printed no vitest account: its last lines instead. */
const TAIL_LINES = 40;

/**
 * Keeps what a step's failure should be remembered by: vitest's failure parts ("Failed Tests",
 * "Failed Suites", "Unhandled Errors") up to its summary, and the step's last lines.
 */
class FailureAccount {
  account = [];
  tail = [];
  #inAccount = false;

  add(line) {
    if (/⎯ (Failed Tests|Failed Suites|Unhandled (Errors?|Rejections?)) /.test(line))
      this.#inAccount = true;
    else if (/^\s*Test Files\s/.test(line)) this.#inAccount = false;
    if (this.#inAccount && this.account.length < ACCOUNT_LINES) this.account.push(line);
    this.tail.push(line);
    if (this.tail.length > TAIL_LINES) this.tail.shift();
  }

  lines() {
    return this.account.length > 0 ? this.account : this.tail;
  }
}

function runStep(lane, { name, command }) {
  const started = performance.now();
  const account = new FailureAccount();
  return new Promise((done) => {
    const child = spawn(command, {
      shell: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Plain output: no colour codes in a log two lanes share (a pipe already gets no redrawn
      // progress lines).
      env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
    });
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => {
        process.stdout.write(`[${lane}] ${line}\n`);
        account.add(line);
      });
    }
    child.on('close', (code) => {
      const seconds = (performance.now() - started) / 1000;
      done({ lane, name, ok: code === 0, seconds, account: account.lines() });
    });
  });
}

async function runLane(lane, steps) {
  const results = [];
  for (const step of steps) results.push(await runStep(lane, step));
  return results;
}

const started = performance.now();
const results = (
  await Promise.all(Object.entries(LANES).map(([lane, steps]) => runLane(lane, steps)))
).flat();

for (const { lane, name, ok, account } of results) {
  if (ok) continue;
  process.stdout.write(`\n── what failed in the ${lane} lane's ${name}, again:\n`);
  for (const line of account) process.stdout.write(`[${lane}] ${line}\n`);
}
process.stdout.write('\n');
for (const { lane, name, ok, seconds } of results) {
  process.stdout.write(
    `── ${lane} lane, ${name}: ${ok ? 'ok' : 'FAILED'} in ${seconds.toFixed(1)} s\n`,
  );
}
const total = ((performance.now() - started) / 1000).toFixed(1);
const failed = results.filter((r) => !r.ok).map((r) => r.name);
if (failed.length > 0) {
  console.error(`Tests failed: ${failed.join(', ')} (both lanes took ${total} s)`);
  process.exit(1);
}
process.stdout.write(`All tests passed; both lanes took ${total} s.\n`);
