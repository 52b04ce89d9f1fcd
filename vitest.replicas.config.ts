import { defineConfig } from 'vitest/config';

// Several replicas of the built BFF (dist/node, so `npm run build` first) behind Debian's nginx,
// on a throwaway PostgreSQL (test/helpers/replica-cluster.ts). One file at a time: each starts
// its own processes, and two cores are shared.
export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/replicas/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    // One temporary folder per run, removed at its end (test/helpers/run-tmpdir.ts).
    globalSetup: ['test/helpers/run-tmpdir.ts'],
  },
});
