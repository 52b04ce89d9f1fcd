import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { QUIET_AFTER_MS } from '../../src/server/release-memory.js';

const releaseMemoryModule = fileURLToPath(
  new URL('../../src/server/release-memory.ts', import.meta.url),
);

// In a process of its own, so that the young generation is V8's alone and not this runner's: a
// burst of allocation grows it to its maximum (as start-up and the demo seed do in the BFF), then
// releaseMemoryNowAndWhenQuiet runs, and the child reports the young generation's committed size
// once it has shrunk, or after three quiet periods if it never does.
const CHILD = `
import { getHeapSpaceStatistics } from 'node:v8';
const { releaseMemoryNowAndWhenQuiet, QUIET_AFTER_MS } = await import(process.argv[1]);
const youngMb = () =>
  getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 1048576;
let kept = [];
for (let i = 0; i < 3_000_000; i++) {
  kept.push({ i, s: 'x' + i });
  if (kept.length > 200_000) kept = [];
}
kept = null;
const grown = youngMb();
releaseMemoryNowAndWhenQuiet();
const rightAfter = youngMb();
const started = Date.now();
const poll = setInterval(() => {
  if (youngMb() < grown / 4 || Date.now() - started > 3 * QUIET_AFTER_MS) {
    clearInterval(poll);
    console.log(JSON.stringify({ grown, rightAfter, quiet: youngMb() }));
  }
}, 200);
`;

describe('releaseMemoryNowAndWhenQuiet', () => {
  it('gives back the young generation that a burst grew, once the process is quiet', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', CHILD, releaseMemoryModule],
      { timeout: 6 * QUIET_AFTER_MS },
    );
    const { grown, rightAfter, quiet } = JSON.parse(stdout) as Record<string, number>;
    // The burst grew it (16 MB semi-spaces on 64-bit), and the collection right after it,
    // made at a high allocation rate, keeps it: that is why a second one is needed.
    expect(grown).toBeGreaterThanOrEqual(16);
    expect(rightAfter).toBe(grown);
    expect(quiet).toBeLessThanOrEqual(2);
  }, 60_000);
});
