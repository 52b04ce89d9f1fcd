// Runs the tests on a busy machine (issue 30, point 4): two CPU-bound busy loops take both
// cores of the project's 2-core machine for the whole run, as two other jobs would, and the
// browser tests' renderers run four times slower (E2E_CPU_THROTTLE=4, unless set). Then the load
// stops, and the run's duration and result are printed.
//
//   node scripts/loaded-test.mjs                 # npm test, loaded
//   node scripts/loaded-test.mjs -- npx vitest run --config vitest.replicas.config.ts
//   LOAD_PROCESSES=4 node scripts/loaded-test.mjs
//
// The busy loops are `stress-ng --cpu N` when stress-ng is installed, else N node children
// spinning `while (true) {}`; they are niced like nothing: they compete with the tests on equal
// terms. Plain Node ESM, no dependencies.
import { spawn, spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
const separator = args.indexOf('--');
const command = separator >= 0 ? args.slice(separator + 1) : ['npm', 'test'];
if (command.length === 0) {
  console.error('Usage: node scripts/loaded-test.mjs [-- command ...]   (default: npm test)');
  process.exit(2);
}
const count = Number(process.env.LOAD_PROCESSES ?? 2);
if (!Number.isInteger(count) || count < 0) {
  console.error(`LOAD_PROCESSES must be a whole number ≥ 0, not "${process.env.LOAD_PROCESSES}"`);
  process.exit(2);
}

const hasStressNg = spawnSync('stress-ng', ['--version'], { stdio: 'ignore' }).status === 0;
/** The load: child processes that each keep one core busy until they are stopped. */
const load =
  count === 0
    ? []
    : hasStressNg
      ? [spawn('stress-ng', ['--cpu', String(count), '--quiet'], { stdio: 'ignore' })]
      : Array.from({ length: count }, () =>
          spawn(process.execPath, ['-e', 'while (true) {}'], { stdio: 'ignore' }),
        );
const loadName =
  count === 0 ? 'no load' : hasStressNg ? `stress-ng --cpu ${count}` : `${count} node busy loops`;

let stopped = false;
function stopLoad() {
  if (stopped) return;
  stopped = true;
  for (const child of load) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}
process.on('exit', stopLoad);

const env = { ...process.env, E2E_CPU_THROTTLE: process.env.E2E_CPU_THROTTLE ?? '4' };
console.log(
  `loaded-test: ${loadName} (pids ${load.map((c) => c.pid).join(', ') || '-'}), ` +
    `E2E_CPU_THROTTLE=${env.E2E_CPU_THROTTLE}; running: ${command.join(' ')}`,
);
const started = performance.now();
const run = spawn(command[0], command.slice(1), { stdio: 'inherit', env });

// Ctrl-C or a kill stops the run, then the load.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (run.exitCode === null) run.kill(signal);
  });
}

run.on('close', (code, signal) => {
  stopLoad();
  const seconds = (performance.now() - started) / 1000;
  const result = code === 0 ? 'passed' : `FAILED (${signal ?? `exit code ${code}`})`;
  console.log(
    `\nloaded-test: ${command.join(' ')} ${result} in ${seconds.toFixed(1)} s ` +
      `(${(seconds / 60).toFixed(1)} min) beside ${loadName}`,
  );
  process.exit(code ?? 1);
});
