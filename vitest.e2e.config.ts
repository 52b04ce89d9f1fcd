import { defineConfig } from 'vitest/config';

// Real-browser tests: Debian's Chromium driven by playwright-core against the built app served by
// the BFF on a demo upstream. One file at a time: two cores, one browser.
export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/e2e/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    // One migrated PGlite per run, which every stack's in-memory store starts from.
    globalSetup: ['test/helpers/pglite-template.ts'],
  },
});
