import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgres-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A throwaway PostgreSQL server's URL for the store tests (one per test run). */
    postgresUrl: string;
  }
}

/** One PostgreSQL server per test run; each test file makes its own database on it. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startPostgres();
  project.provide('postgresUrl', server.url);
  return () => server.stop();
}
