import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { inject } from 'vitest';
import type { TestProject } from 'vitest/node';
import { createPglite } from '../../src/server/store/pglite.js';
import { HistoryStore } from '../../src/server/store/history-store.js';
import { tempDataDir } from './test-config.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * A migrated, empty PGlite store made once per test run: `folder` is its data directory,
     * `tarball` the same directory dumped for in-memory stores (PGlite's `loadDataDir`).
     */
    pgliteTemplate: { folder: string; tarball: string } | null;
  }
}

/*
 * A cold PGlite runs initdb (about 2 s of CPU, and for a folder a child process holding 500 MB)
 * before the migrations: per store, that was most of what the store tests cost. A test run makes
 * one migrated store and every test store starts as a copy of it. What a first start does
 * (initdb, migrations from nothing) keeps its own tests: history-store-migrations, store-lock's
 * start-up failure, demo-seed and the memory budget's first `npm start`.
 */

/** For a globalSetup: makes the template and provides it; returns its removal. */
export async function provideTemplate(project: TestProject): Promise<() => void> {
  const root = mkdtempSync(join(tmpdir(), 'grd-pglite-template-'));
  await (
    await HistoryStore.open({ dataDir: root, databaseUrl: null, retentionDays: null })
  ).close();
  const folder = join(root, 'history');
  const client = await createPglite(folder);
  try {
    const dump = await client.dumpDataDir('none');
    const tarball = join(root, 'history.tar');
    writeFileSync(tarball, Buffer.from(await dump.arrayBuffer()));
    project.provide('pgliteTemplate', { folder, tarball });
  } finally {
    await client.close();
  }
  return () => rmSync(root, { recursive: true, force: true });
}

export default async function setup(project: TestProject): Promise<() => void> {
  return provideTemplate(project);
}

function template(): { folder: string; tarball: string } | null {
  // Absent when a run's configuration has no global setup that makes it: then stores start cold.
  try {
    return inject('pgliteTemplate') ?? null;
  } catch {
    return null;
  }
}

let tarball: Blob | undefined;

/** The template for an in-memory store (`pgliteTemplate` of HistoryStore.open), read once. */
export function pgliteTemplateBlob(): Blob | undefined {
  const made = template();
  if (!made) return undefined;
  tarball ??= new Blob([readFileSync(made.tarball)]);
  return tarball;
}

/**
 * A file of this run beside the template (removed with it), for a store made once per run and
 * shared by the test files that start from it; null when the run made no template.
 */
export function runFile(name: string): string | null {
  const made = template();
  return made ? join(dirname(made.tarball), name) : null;
}

/** A new DATA_DIR whose `history` folder is a copy of the template: a migrated, empty store. */
export function templateDataDir(prefix = 'grd-store-'): string {
  const dataDir = tempDataDir(prefix);
  const made = template();
  if (made) cpSync(made.folder, join(dataDir, 'history'), { recursive: true });
  return dataDir;
}
