import { vi } from 'vitest';
import type { EntryRun } from './run-entry.js';

/** Thrown by the stand-in for `process.exit`: the entry's code stops where the process would. */
class EntryExited extends Error {
  constructor(readonly code: number) {
    super(`process.exit(${code})`);
  }
}

/**
 * Runs an entry point (`main.ts`) inside this test process as `runEntry` runs it as a child: a
 * fresh evaluation of the module with only PATH and the given variables in `process.env`, its
 * stdout and stderr captured and `process.exit` stopping it. For start-ups that end before
 * anything is opened (a bad configuration); an entry that does not exit gives `code: null`.
 * Output written after the first exit is dropped, as the real process would never write it.
 */
export async function runEntryInProcess(
  load: () => Promise<unknown>,
  env: Record<string, string>,
): Promise<EntryRun> {
  const savedEnv = process.env;
  let code: number | null = null;
  let output = '';
  const capture = (chunk: unknown): boolean => {
    if (code === null) output += String(chunk);
    return true;
  };
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  const exit = vi.spyOn(process, 'exit').mockImplementation((value) => {
    // Only the first exit stops the code: a second one comes from an error handler that the
    // first exit's throw ran, and must return for that handler to finish quietly.
    if (code !== null) return undefined as never;
    code = Number(value ?? 0);
    throw new EntryExited(code);
  });
  process.env = { PATH: savedEnv.PATH ?? '', ...env };
  try {
    vi.resetModules();
    await load();
    // The entry's own promise handlers (its `.catch` after the exit) run before this turn ends.
    await new Promise((done) => setImmediate(done));
  } finally {
    process.env = savedEnv;
    exit.mockRestore();
    stderr.mockRestore();
    stdout.mockRestore();
  }
  return { code, output };
}
