import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * One temporary folder per test run, removed when the run ends, whatever the tests left in it.
 * Test files make their data folders with `mkdtemp(tmpdir())` and a crashed or timed-out test
 * never removes its own; before this, /tmp gathered gigabytes of `grd-*` folders run after run.
 * Set as TMPDIR before the workers and the servers they spawn start, so they all inherit it.
 */
export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'grd-run-'));
  // The throwaway PostgreSQL cluster runs as the `postgres` user and must reach its folder in here.
  chmodSync(dir, 0o755);
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  };
}
