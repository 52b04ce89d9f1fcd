import { defineConfig } from 'vitest/config';

// Real-browser tests: Debian's Chromium driven by playwright-core against the built app served by
// the BFF on a demo upstream. One file at a time: two cores, one browser (two files at once beside
// the node lane overloaded the machine: a BFF answered 503 to a page, and the suite took longer).
// One module graph for all files (`isolate: false`, as the node project): every file starts its
// own stacks and Chromium, and importing the server's modules again for each of 31 files cost
// about 110 CPU-seconds of the browser lane (the vitest worker 308 s → 195 s in a whole run).

// The loaded run (scripts/loaded-test.mjs: both cores busy and E2E_CPU_THROTTLE=4) makes every
// page load and redraw several times slower: a test of eight page visits that takes 20 s took
// over 60 s there. The limits grow with the throttle (a limit, not a wait: a test that passes
// still ends as soon as its conditions hold); an invalid value is refused by test/e2e/browser.ts.
const slowdown = Math.max(1, Math.min(4, Number(process.env.E2E_CPU_THROTTLE) || 1));

export default defineConfig({
  // Its own cache (vitest keeps file durations there): this run goes beside the unit run
  // (scripts/test-lanes.mjs), and two runs writing one cache file could leave it torn.
  cacheDir: 'node_modules/.vite/e2e',
  test: {
    environment: 'node',
    include: ['test/e2e/**/*.test.ts'],
    testTimeout: 60_000 * Math.max(1, slowdown / 1.5),
    // expect.poll gives up after 1 s by default: a slow renderer (a loaded CI machine, or
    // E2E_CPU_THROTTLE) takes longer than that to reload a page or fetch and draw an answer, and
    // a poll that met its condition at 1.3 s failed. The same 20 s as the page waits (waitForMap).
    expect: { poll: { timeout: 20_000 * Math.max(1, slowdown / 2) } },
    hookTimeout: 120_000 * Math.max(1, slowdown / 2),
    fileParallelism: false,
    isolate: false,
    // One migrated PGlite per run, which every stack's in-memory store starts from.
    globalSetup: ['test/helpers/run-tmpdir.ts', 'test/helpers/pglite-template.ts'],
    // TEST_AUTH_MODE=token|proxy: the tests' fetch sends the mode's credentials to its stacks.
    setupFiles: ['test/e2e/setup-mode-clients.ts'],
  },
});
