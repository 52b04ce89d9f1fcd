// The checks `npm test` runs before any test: types, lint, formatting and the build, two at a
// time (this project's machine has two cores; each of these uses one, except the client build).
// The server's types are checked once, by the build that emits them (`tsc -p
// tsconfig.server.json` fails on a type error as `--noEmit` does): `npm run typecheck` checks
// them a second time only because it must stand alone without a build.
// Each check's output is printed whole when it ends, so parallel runs never interleave; the
// exit code is 1 when any check failed, after all of them have finished.
// Plain Node ESM, no dependencies.
import { spawn } from 'node:child_process';

// `tsc` is TypeScript 7, the native compiler (the `typescript-native` alias in package.json):
// the same checks as 5.9 in a sixth of the time here (typecheck 9 s against 60-70 s; the server
// build 6 s against 17-31 s, emitting the same JavaScript). typescript-eslint still needs 5.9
// as a library (TypeScript 7 has no JavaScript API), so both are installed.
const TSC = 'node node_modules/typescript-native/bin/tsc';
const CHECKS = [
  // The longest first, so the two slots end close together.
  { name: 'lint', command: 'npx eslint .' },
  { name: 'format', command: 'npx prettier --check .' },
  { name: 'build:client', command: 'npm run build:client' },
  { name: 'typecheck (app, tests, scripts)', command: `${TSC} -p tsconfig.json --noEmit` },
  { name: 'build:server (types of the server)', command: 'npm run build:server' },
];
const SLOTS = Number(process.env.CHECK_SLOTS ?? 2);

function run({ name, command }) {
  const started = performance.now();
  return new Promise((done) => {
    const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const verdict = code === 0 ? 'ok' : `FAILED (exit ${code})`;
      process.stdout.write(`\n── ${name}: ${verdict} in ${seconds} s ── ${command}\n${output}`);
      done(code === 0);
    });
  });
}

const queue = [...CHECKS];
const results = [];
await Promise.all(
  Array.from({ length: SLOTS }, async () => {
    for (let check = queue.shift(); check; check = queue.shift()) {
      results.push({ name: check.name, ok: await run(check) });
    }
  }),
);
const failed = results.filter((r) => !r.ok).map((r) => r.name);
if (failed.length > 0) {
  console.error(`\nStatic checks failed: ${failed.join(', ')}`);
  process.exit(1);
}
