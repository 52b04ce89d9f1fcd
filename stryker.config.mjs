// @ts-check
/**
 * Mutation testing of the modules that keep the product's guarantees (`npm run test:mutation`,
 * not part of `npm test`). Scores and the survivors judged equivalent: docs/testing.md.
 * One module while working on it: `npx stryker run --mutate src/server/upstream/quota.ts`.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts' },
  coverageAnalysis: 'perTest',
  // The machines are shared; raise it (STRYKER_CONCURRENCY) on a machine of your own.
  concurrency: Number(process.env.STRYKER_CONCURRENCY ?? 1),
  // Only mutants whose code or tests changed are tested again (the file is gitignored).
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  mutate: [
    'src/server/upstream/quota.ts',
    'src/server/replicas/shared-quota.ts',
    'src/server/services/alerts/alert-rules.ts',
    'src/server/services/alerts/address-policy.ts',
    'src/server/jobs/webhook-sender.ts',
    'src/server/jobs/batch-recorder.ts',
    'src/server/jobs/pipeline.ts',
    // Recording a batch (insertBatch, retention's delete, hasBatch); the rest are the reads.
    'src/server/store/batches.ts:30-106',
    'src/server/store/batches.ts:209-232',
    // The role default-deny and the cross-site guard every write passes.
    'src/server/plugins/roles.ts',
    'src/server/plugins/cross-site.ts',
    // The history answers, whole (issue 30): /api/changes, the series, event pages, cursors.
    'src/server/services/history/history-answers.ts',
    'src/server/services/exports/spreadsheet-csv.ts',
    // The formula guard every CSV shares (the BFF's and the browser's).
    'src/shared/spreadsheet-cell.ts',
    // Alert evaluation (breaking events since the previous batch) and the outbox (claims,
    // leases, the leader fence, the delivery cut-off).
    'src/server/jobs/alert-evaluator.ts',
    'src/server/jobs/outbox-worker.ts',
    'src/server/jobs/outbox-lanes.ts',
    'src/server/jobs/webhook-outbox.ts',
    'src/server/jobs/email-outbox.ts',
    'src/server/store/outbox.ts',
    'src/server/plugins/access.ts',
    'src/server/client-limit.ts',
    // Cache staleness: the policy, and where the cache applies it (load, peek, classify, the
    // time an entry was last checked).
    'src/shared/freshness.ts',
    'src/server/cache/resource-cache.ts:113-161',
    'src/server/cache/resource-cache.ts:306-320',
    // A client's cache miss and its refunds (issue 30): joined, adopted from another replica,
    // or refused before anything was sent give the client its miss back.
    'src/server/cache/resource-cache.ts:205-246',
  ],
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 90, low: 80, break: 90 },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
