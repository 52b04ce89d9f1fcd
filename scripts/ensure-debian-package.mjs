// The tests use real parts from Debian: Chromium for the browser tests, a PostgreSQL server for
// the store tests, pdftoppm for the printed brief, nginx as the load balancer of the replica tests. `node scripts/ensure-debian-package.mjs NAME`
// makes sure one is there: where it is missing, install the distribution package when we can
// (root + apt-get), else stop with a plain message saying how. Nothing is ever downloaded by a
// test tool itself.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';

/** The newest PostgreSQL server's binaries under Debian's layout, or null. */
function postgresBinaries() {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).filter((v) => existsSync(`${root}/${v}/bin/postgres`));
  return versions.length > 0 ? `${root}/${versions.sort().at(-1)}/bin` : null;
}

const PARTS = {
  chromium: {
    what: "the browser tests need Debian's Chromium at /usr/bin/chromium",
    present: () => existsSync('/usr/bin/chromium'),
    size: 'about 350 MB',
  },
  postgresql: {
    what: 'the store tests need a PostgreSQL server (under /usr/lib/postgresql)',
    present: () => postgresBinaries() !== null,
    size: 'about 50 MB',
  },
  'poppler-utils': {
    what: "the brief's print test needs /usr/bin/pdftoppm",
    present: () => existsSync('/usr/bin/pdftoppm'),
    size: 'a few MB',
  },
  nginx: {
    what: 'the replica tests need nginx at /usr/sbin/nginx (the load balancer in front of them)',
    present: () => existsSync('/usr/sbin/nginx'),
    size: 'about 5 MB',
  },
};

const name = process.argv[2];
const part = PARTS[name];
const fail = (message) => {
  console.error(`\n${message}\n`);
  process.exit(1);
};
if (!part) fail(`Usage: ensure-debian-package.mjs ${Object.keys(PARTS).join('|')}`);
if (part.present()) process.exit(0);

if (typeof process.getuid !== 'function' || process.getuid() !== 0) {
  fail(
    `Not installed: ${part.what}.\nInstall it as root, then run the tests again:\n` +
      `  apt-get update && apt-get install -y ${name}`,
  );
}
if (spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status !== 0) {
  fail(`Not installed: ${part.what}; this machine has no apt-get to install "${name}" with.`);
}

console.log(
  `Missing: ${part.what}. Installing Debian's "${name}" package with apt-get\n` +
    `(this test run is root; ${part.size}, once per machine)...`,
);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
for (const args of [
  ['update', '-qq'],
  ['install', '-y', '-qq', name],
]) {
  const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
  if (result.status !== 0) fail(`"apt-get ${args.join(' ')}" failed (exit ${result.status}).`);
}
if (!part.present()) fail(`apt-get finished, but still: ${part.what}.`);
console.log(`"${name}" installed.`);
