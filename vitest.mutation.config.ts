import { defineConfig } from 'vitest/config';

/*
 * The tests StrykerJS runs against each mutant (stryker.config.mjs): the server's fast tests
 * that cover the mutated modules, in Node, on loopback. No browser, no replica cluster: those
 * take minutes per run and cover these modules no better.
 */
export default defineConfig({
  test: {
    globals: true,
    environment: 'node',
    include: [
      'test/shared/freshness.test.ts',
      'test/server/quota*.test.ts',
      'test/server/alert-rules*.test.ts',
      'test/server/webhook-sender.test.ts',
      'test/server/spreadsheet.test.ts',
      'test/server/changes-answer.test.ts',
      'test/server/batch-watch.test.ts',
      'test/server/cache-staleness.test.ts',
    ],
    testTimeout: 20_000,
    globalSetup: ['test/helpers/postgres-global-setup.ts'],
  },
});
