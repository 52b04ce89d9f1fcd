import { defineConfig } from 'vitest/config';

// Real-browser tests: Debian's Chromium driven by playwright-core against the built app served by
// the BFF on a demo upstream. One file at a time: two cores, one browser.
export default defineConfig({
  // Its own cache (vitest keeps file durations there): this run goes beside the unit run
  // (scripts/test-lanes.mjs), and two runs writing one cache file could leave it torn.
  cacheDir: 'node_modules/.vite/e2e',
  test: {
    environment: 'node',
    include: ['test/e2e/**/*.test.ts'],
    testTimeout: 60_000,
    // expect.poll gives up after 1 s by default: a slow renderer (a loaded CI machine, or
    // E2E_CPU_THROTTLE) takes longer than that to reload a page or fetch and draw an answer, and
    // a poll that met its condition at 1.3 s failed. The same 20 s as the page waits (waitForMap).
    expect: { poll: { timeout: 20_000 } },
    hookTimeout: 120_000,
    fileParallelism: false,
    // One migrated PGlite per run, which every stack's in-memory store starts from.
    globalSetup: ['test/helpers/run-tmpdir.ts', 'test/helpers/pglite-template.ts'],
    // TEST_AUTH_MODE=token|proxy: the tests' fetch sends the mode's credentials to its stacks.
    setupFiles: ['test/e2e/setup-mode-clients.ts'],
  },
});
