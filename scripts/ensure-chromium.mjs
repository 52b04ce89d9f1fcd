// Browser tests drive Debian's Chromium (never a browser downloaded by a test tool). Where it is
// missing, install the distribution package when we can (root + apt-get), else stop plainly.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = '/usr/bin/chromium';

if (existsSync(CHROMIUM)) process.exit(0);

const fail = (message) => {
  console.error(`\n${message}\n`);
  process.exit(1);
};

if (typeof process.getuid !== 'function' || process.getuid() !== 0) {
  fail(
    `The browser tests need Debian's Chromium at ${CHROMIUM}, and it is not installed.\n` +
      'Install it as root, then run the tests again:\n' +
      '  apt-get update && apt-get install -y chromium',
  );
}
if (spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status !== 0) {
  fail(
    `The browser tests need Chromium at ${CHROMIUM}; this machine has no apt-get to install it.`,
  );
}

console.log(
  `Chromium is missing at ${CHROMIUM}: installing Debian's "chromium" package with apt-get\n` +
    '(this test run is root; about 350 MB, once per machine)...',
);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
for (const args of [
  ['update', '-qq'],
  ['install', '-y', '-qq', 'chromium'],
]) {
  const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
  if (result.status !== 0) fail(`"apt-get ${args.join(' ')}" failed (exit ${result.status}).`);
}
if (!existsSync(CHROMIUM)) fail(`apt-get finished but ${CHROMIUM} is still missing.`);
console.log('Chromium installed.');
