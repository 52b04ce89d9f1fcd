import type { TestProject } from 'vitest/node';
import { provideTemplate } from './pglite-template.js';
import { startPostgres } from './postgres-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A throwaway PostgreSQL server's URL for the store tests (one per test run). */
    postgresUrl: string;
  }
}

/**
 * One PostgreSQL server per test run (each test file makes its own database on it), and the
 * migrated PGlite every embedded test store starts from (pglite-template.ts), made meanwhile.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const [server, removeTemplate] = await Promise.all([startPostgres(), provideTemplate(project)]);
  project.provide('postgresUrl', server.url);
  return async () => {
    removeTemplate();
    await server.stop();
  };
}
