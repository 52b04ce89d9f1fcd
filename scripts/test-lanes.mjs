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
// exit code is 1 when any step failed, after both lanes have finished. Plain Node ESM, no
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

function runStep(lane, { name, command }) {
  const started = performance.now();
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
      });
    }
    child.on('close', (code) => {
      done({ lane, name, ok: code === 0, seconds: (performance.now() - started) / 1000 });
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
