import { defineConfig } from 'vitest/config';

/*
 * The tests StrykerJS runs against each mutant (stryker.config.mjs): the server tests that cover
 * the mutated modules, in Node, on loopback. No browser and no replicas of the built server: those
 * take minutes per run and cover these modules no better. Stryker runs, per mutant, only the tests
 * that reach its line; a mutant of module-level code (static) runs them all.
 */
const focused = [
  // Quota, alert rules, webhook signing and address policy, /api/changes, cache staleness,
  // the batch watch.
  'test/shared/freshness*.test.ts',
  'test/server/quota*.test.ts',
  'test/server/alert-rules*.test.ts',
  'test/server/webhook-sender.test.ts',
  'test/server/webhook-answers.test.ts',
  'test/server/webhook-connect.mutation.test.ts',
  'test/server/address-policy*.test.ts',
  'test/server/changes-answer.test.ts',
  // The history answers whole (series, event pages, as-of pairs) and the refund path.
  'test/server/history-memo.test.ts',
  'test/server/as-of-reads.test.ts',
  'test/server/cache-refunds.mutation.test.ts',
  'test/server/event-cursor.mutation.test.ts',
  'test/server/cache-staleness.test.ts',
  'test/server/batch-watch.test.ts',
  // The pipeline's steps and the store's recording (PostgreSQL only here).
  'test/server/batch-pipeline.test.ts',
  'test/server/history-store.test.ts',
  // Spreadsheet cells, the outage share, client limits, access, the outbox and the evaluator's
  // windows (breaking events since the previous batch, the 48 h delivery cut-off).
  'test/shared/spreadsheet-cell.test.ts',
  'test/server/spreadsheet-csv-rows.test.ts',
  'test/server/outage-share.test.ts',
  'test/server/shared-quota.test.ts',
  'test/server/client-limit-edges.test.ts',
  'test/server/access-plugin.test.ts',
  'test/server/outbox-claims.test.ts',
  'test/server/outbox-worker.test.ts',
  'test/server/outbox-retries.test.ts',
  'test/server/outbox-people.mutation.test.ts',
  'test/server/outbox-failures.mutation.test.ts',
  'test/server/outbox-lanes.mutation.test.ts',
  'test/server/delivery-cutoff.test.ts',
  'test/server/breaking-since-previous.test.ts',
  'test/server/alert-evaluator-deliveries.test.ts',
  'test/server/alert-cursor-race.mutation.test.ts',
  // The pipeline's wiring, the role default-deny and the cross-site guard (bare jobs and apps).
  'test/server/batch-pipeline.mutation.test.ts',
  'test/server/batch-recorder.mutation.test.ts',
  'test/server/batch-watch-steps.mutation.test.ts',
  'test/server/batch-recording.mutation.test.ts',
  'test/server/write-guards.mutation.test.ts',
];
/** The whole app: batch recording, alert evaluation and delivery, CSV, access, client limits, the shared ledger. */
const appLevel = [
  'test/server/history-recording.test.ts',
  'test/server/alert-evaluation.test.ts',
  'test/server/webhook-delivery.test.ts',
  'test/server/spreadsheet.test.ts',
  'test/server/access.test.ts',
  'test/server/access-details.test.ts',
  'test/server/roles.test.ts',
  'test/server/routed-path-guards.test.ts',
  'test/server/budget-share.test.ts',
  'test/server/replicas.test.ts',
];

/** MUTATION_TESTS=a.test.ts,b.test.ts: only these (one module's own tests while working on it). */
const chosen = process.env.MUTATION_TESTS?.split(',').filter(Boolean);

export default defineConfig({
  test: {
    globals: true,
    environment: 'node',
    // MUTATION_FOCUSED=1: the focused tests only (minutes, not an hour, for the modules they cover).
    include: chosen ?? (process.env.MUTATION_FOCUSED === '1' ? focused : [...focused, ...appLevel]),
    testTimeout: 20_000,
    globalSetup: ['test/helpers/postgres-global-setup.ts'],
    // The tests that run on both store backends take PostgreSQL only here: the mutants are in
    // what uses the store, and a cold PGlite costs seconds of CPU a mutant (history-store.ts).
    env: { TEST_STORE_BACKENDS: 'postgres' },
  },
});
