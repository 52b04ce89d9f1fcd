// The brief's browser test turns Chromium's PDF into page images with pdftoppm (Debian's
// poppler-utils). Where it is missing, install the package when we can (root + apt-get), as
// ensure-chromium.mjs does for the browser, else stop plainly.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const PDFTOPPM = '/usr/bin/pdftoppm';

if (existsSync(PDFTOPPM)) process.exit(0);

const fail = (message) => {
  console.error(`\n${message}\n`);
  process.exit(1);
};

if (typeof process.getuid !== 'function' || process.getuid() !== 0) {
  fail(
    `The brief's print test needs ${PDFTOPPM} (Debian's poppler-utils), and it is not installed.\n` +
      'Install it as root, then run the tests again:\n' +
      '  apt-get update && apt-get install -y poppler-utils',
  );
}
if (spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status !== 0) {
  fail(`The brief's print test needs ${PDFTOPPM}; this machine has no apt-get to install it.`);
}

console.log('pdftoppm is missing: installing Debian\'s "poppler-utils" package with apt-get...');
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
const install = spawnSync('apt-get', ['install', '-y', '-qq', 'poppler-utils'], {
  stdio: 'inherit',
  env,
});
if (install.status !== 0) {
  // The package lists may be missing or old on a fresh machine: update once, then try again.
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', 'poppler-utils'],
  ]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (result.status !== 0) fail(`"apt-get ${args.join(' ')}" failed (exit ${result.status}).`);
  }
}
if (!existsSync(PDFTOPPM)) fail(`apt-get finished but ${PDFTOPPM} is still missing.`);
