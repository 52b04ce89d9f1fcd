import react from '@vitejs/plugin-react';
import { commonCountryNames } from './scripts/vite/common-country-names.ts';
import { tierColours } from './scripts/vite/tier-colours.ts';
import { worldShapes } from './scripts/vite/world-shapes.ts';
import { defineConfig } from 'vitest/config';

/** Client test files that vi.mock a module of the app (see the client-mocks project). */
const MOCKING_CLIENT_FILES = [
  'test/client/overview-interactions.test.tsx',
  'test/client/country-page-renders.test.tsx',
  'test/client/main-start.test.tsx',
  'test/client/history-panels-arrival.test.tsx',
];

export default defineConfig({
  plugins: [react(), commonCountryNames(), worldShapes(), tierColours()],
  test: {
    globals: true,
    // Most test files wait on sockets, child processes and the PostgreSQL server rather than
    // compute: two at once on a 2-core machine took the unit run from ~340 s to ~260 s (vitest's
    // default there is one).
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'test/shared/**/*.test.ts',
            'test/server/**/*.test.ts',
            'test/demo-upstream/**/*.test.ts',
          ],
          testTimeout: 20_000,
          // One module graph per worker for all its files instead of one per file: importing
          // Fastify, drizzle, PGlite and zod again for every file was a third of this project's
          // CPU (310 -> 198 s for 1,099 tests; 205 -> 147 s of wall time). Files share no state
          // through modules: every test builds its own app, store and upstream, and none mocks a
          // module (vi.mock would leak to the next file here).
          isolate: false,
          // One temporary folder per run, removed at its end (run-tmpdir.ts), then a throwaway
          // PostgreSQL server for the store tests (test/helpers/postgres-server.ts).
          globalSetup: ['test/helpers/run-tmpdir.ts', 'test/helpers/postgres-global-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'client',
          environment: 'jsdom',
          include: ['test/client/**/*.test.{ts,tsx}'],
          exclude: [...MOCKING_CLIENT_FILES],
          setupFiles: ['test/client/setup.ts'],
          // vitest's default 5 s: a page test that takes 1–3 s alone took 4.7 s at load 17 (helpers
          // and a browser on two cores) and others passed the limit; with two busy loops beside
          // the whole suite (scripts/loaded-test.mjs) one wait alone may take 15 s
          // (test/client/waits.ts) and a test makes several. A limit, not a wait: a test that
          // passes still ends as soon as its conditions hold.
          testTimeout: 60_000,
          // One jsdom and one module graph for all client files instead of one per file: every
          // test renders its own app (new query client, its own stubbed fetch, cleaned up after
          // each test in setup.ts), and a new environment and imports of React, the router and
          // recharts per file were most of this project's time (133 s -> 33-93 s here).
          isolate: false,
        },
      },
      {
        // Client files that replace a module (vi.mock): with one module graph per worker the
        // mock applied only when no file before it in that worker had imported the module, so
        // the test passed alone and failed beside overview.test.tsx. These get their own graph.
        extends: true,
        test: {
          name: 'client-mocks',
          environment: 'jsdom',
          include: [...MOCKING_CLIENT_FILES],
          setupFiles: ['test/client/setup.ts'],
          testTimeout: 60_000,
          isolate: true,
        },
      },
    ],
  },
});
