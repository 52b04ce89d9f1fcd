// The store's tests run against a real PostgreSQL server (Debian's package), started by the
// tests themselves in a throwaway cluster. Where the server binaries are missing, install the
// distribution package when we can (root + apt-get), else stop plainly.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';

const ROOT = '/usr/lib/postgresql';

function serverBinaries() {
  if (!existsSync(ROOT)) return null;
  const versions = readdirSync(ROOT).filter((v) => existsSync(`${ROOT}/${v}/bin/postgres`));
  return versions.length > 0 ? `${ROOT}/${versions.sort().at(-1)}/bin` : null;
}

if (serverBinaries()) process.exit(0);

const fail = (message) => {
  console.error(`\n${message}\n`);
  process.exit(1);
};

if (typeof process.getuid !== 'function' || process.getuid() !== 0) {
  fail(
    `The store tests need a PostgreSQL server (Debian's "postgresql" package, under ${ROOT}), ` +
      'and it is not installed.\nInstall it as root, then run the tests again:\n' +
      '  apt-get update && apt-get install -y postgresql',
  );
}
if (spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status !== 0) {
  fail(`The store tests need PostgreSQL under ${ROOT}; this machine has no apt-get to install it.`);
}

console.log(
  'PostgreSQL is missing: installing Debian\'s "postgresql" package with apt-get\n' +
    '(this test run is root; once per machine)...',
);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
for (const args of [
  ['update', '-qq'],
  ['install', '-y', '-qq', 'postgresql'],
]) {
  const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
  if (result.status !== 0) fail(`"apt-get ${args.join(' ')}" failed (exit ${result.status}).`);
}
if (!serverBinaries()) fail(`apt-get finished but no server binaries are under ${ROOT}.`);
console.log('PostgreSQL installed.');
