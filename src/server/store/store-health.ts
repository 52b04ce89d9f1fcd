import { closeSync, openSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { StoreHealthStatus } from '../../shared/bff-api.js';
import { errorWords } from '../safe-error.js';
import { causesOf, type ErrorFacts } from './error-causes.js';

/**
 * The embedded store's folder, watched. PGlite keeps its files open: with its folder removed or
 * replaced, a write still "succeeds" into files no longer on disk and is lost at the next start;
 * on a full disk or a read-only folder, writes fail. Every statement therefore checks that the
 * folder is still the one opened, before and after it runs, and a statement that cannot be known
 * stored fails with StoreFailingError (a 503, never an acknowledgement). `/readyz` and
 * `/api/status` read `status()`, which also writes a small file to see that the disk takes it.
 */

/** The store cannot keep what it is given; the message is plain words for people. */
export class StoreFailingError extends Error {
  override name = 'StoreFailingError';
}

/** The StoreFailingError in `error` or what it wraps (drizzle wraps the driver's errors). */
export function storeFailure(error: unknown): StoreFailingError | null {
  for (const e of causesOf(error)) if (e instanceof StoreFailingError) return e;
  return null;
}

/** How often `status()` writes its probe file, at most. */
const PROBE_EVERY_MS = 2_000;
const PROBE_FILE = '.write-check';
const PROBE_BYTES = Buffer.alloc(4096);
const WHERE = 'DATA_DIR/history';

/** SQLSTATE classes of a store that cannot write: 53 (insufficient resources), 58 (I/O). */
const FAILING_SQLSTATE = /^(53|58)/;
const FAILING_TEXT =
  /No space left|Read-only file system|Input\/output error|Not a directory|could not (open|write|extend|create|fsync|read)|Aborted|RuntimeError|PGlite is closed/i;

interface Failure {
  message: string;
  since: number;
  /** PGlite stopped (its WebAssembly aborted): only a restart brings it back. */
  sticky: boolean;
}

export class StoreHealth {
  readonly #identity: { dev: number; ino: number };
  #failure: Failure | null = null;
  #probedAt = -Infinity;
  #probed: string | null = null;
  /** The last statement's disk failure, until a statement succeeds. */
  #writeFailure: string | null = null;

  constructor(
    private readonly folder: string,
    private readonly now: () => number = Date.now,
  ) {
    const stat = statSync(folder);
    this.#identity = { dev: stat.dev, ino: stat.ino };
  }

  /**
   * For `/api/status` and `/readyz`: the folder checked (and written, every few seconds); a
   * failed write counts until a later statement succeeds.
   */
  status(): StoreHealthStatus {
    if (!this.#failure?.sticky) {
      const problem = this.#folderProblem() ?? this.#writeFailure ?? this.#probeProblem();
      this.#set(problem);
    }
    return {
      kind: 'pglite',
      health: this.#failure ? 'failing' : 'ok',
      message: this.#failure?.message ?? null,
      since: this.#failure ? new Date(this.#failure.since).toISOString() : null,
    };
  }

  /** Before a statement: refuse when the folder is not the one opened, or PGlite stopped. */
  before(): void {
    if (this.#failure?.sticky) throw new StoreFailingError(refusal(this.#failure.message));
    const problem = this.#folderProblem();
    if (problem) {
      this.#set(problem);
      throw new StoreFailingError(refusal(problem));
    }
  }

  /** After a statement that succeeded: it is stored only if the folder is still the same. */
  after(): void {
    const problem = this.#folderProblem();
    if (problem) {
      this.#set(problem);
      throw new StoreFailingError(
        `${problem} What was just written may not have been stored; nothing is acknowledged.`,
      );
    }
  }

  /** A statement failed: a failure of the disk is this store's health, and a 503 for callers. */
  failed(error: unknown): unknown {
    if (storeFailure(error) || !isDiskFailure(error)) return error;
    const words = errorWords(diskCause(error));
    const sticky = /Aborted|RuntimeError|PGlite is closed/i.test(words);
    const message = sticky
      ? `The history store (${WHERE}) stopped after a file-system failure (${words}); restart the dashboard once the disk is fixed.`
      : `The history store (${WHERE}) cannot write: ${words}.`;
    this.#writeFailure = message;
    this.#set(message, sticky);
    return new StoreFailingError(refusal(message), { cause: error });
  }

  /** A statement succeeded after a failed one: the store writes again (space was freed). */
  succeeded(): void {
    if (this.#writeFailure === null) return;
    this.#writeFailure = null;
    if (!this.#failure?.sticky) this.#set(null);
  }

  #set(problem: string | null, sticky = false): void {
    if (problem === null) this.#failure = null;
    else if (this.#failure?.message !== problem) {
      this.#failure = { message: problem, since: this.now(), sticky };
    }
  }

  #folderProblem(): string | null {
    try {
      const stat = statSync(this.folder);
      if (!stat.isDirectory()) {
        return `The history store's folder (${WHERE}) has been replaced by a file; history, watchlists and alerts cannot be saved. Put the folder back and restart the dashboard.`;
      }
      if (stat.dev !== this.#identity.dev || stat.ino !== this.#identity.ino) {
        return `The history store's folder (${WHERE}) was replaced while the dashboard ran; history, watchlists and alerts cannot be saved. Restart the dashboard.`;
      }
      return null;
    } catch {
      return `The history store's folder (${WHERE}) is gone; history, watchlists and alerts cannot be saved. Restore the folder and restart the dashboard.`;
    }
  }

  #probeProblem(): string | null {
    const at = this.now();
    if (at - this.#probedAt < PROBE_EVERY_MS) return this.#probed;
    this.#probedAt = at;
    this.#probed = this.#probe();
    return this.#probed;
  }

  #probe(): string | null {
    const path = join(this.folder, PROBE_FILE);
    try {
      const fd = openSync(path, 'w');
      try {
        // No fsync (milliseconds on a busy disk, on the event loop): a full disk refuses the
        // write itself, when the file system reserves its blocks.
        writeSync(fd, PROBE_BYTES);
      } finally {
        closeSync(fd);
        unlinkSync(path);
      }
      return null;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'ENOSPC' || code === 'EDQUOT') {
        return `The disk of the history store (${WHERE}) is full; history, watchlists and alerts cannot be saved until space is freed.`;
      }
      return `The history store's folder (${WHERE}) cannot be written (${code ?? errorWords(error)}); history, watchlists and alerts cannot be saved.`;
    }
  }
}

function refusal(problem: string): string {
  return `${problem} Nothing was saved.`;
}

function saysDiskFailed({ code, message, name }: ErrorFacts): boolean {
  if (name === 'ErrnoError') return true;
  if (typeof code === 'string' && FAILING_SQLSTATE.test(code)) return true;
  return typeof message === 'string' && FAILING_TEXT.test(message);
}

function isDiskFailure(error: unknown): boolean {
  for (const e of causesOf(error)) if (saysDiskFailed(e)) return true;
  return false;
}

/**
 * The innermost error of the chain that says what the disk did: the driver's, not drizzle's
 * "Failed query: <the statement>" around it, so a refusal names the disk and never the SQL.
 */
function diskCause(error: unknown): unknown {
  let found: unknown = error;
  for (const e of causesOf(error)) if (saysDiskFailed(e)) found = e;
  return found;
}

type Statement = (...args: never[]) => Promise<unknown>;

/**
 * Puts `health` around every statement of a PGlite client (the object drizzle holds): `query`,
 * `exec` and `transaction` (a transaction is checked around its commit, not per statement).
 */
export function guardStatements(client: object, health: StoreHealth): void {
  const target = client as Record<string, unknown>;
  for (const name of ['query', 'exec', 'transaction']) {
    const original = target[name];
    if (typeof original !== 'function') continue;
    const run = (original as Statement).bind(client);
    target[name] = async (...args: never[]) => {
      health.before();
      let result: unknown;
      try {
        result = await run(...args);
      } catch (error) {
        throw health.failed(error);
      }
      health.after();
      health.succeeded();
      return result;
    };
  }
}
