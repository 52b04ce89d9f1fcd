import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { makeFolder } from '../make-folder.js';
import { emptyQuotaState, quotaStateSchema, type QuotaState } from '../upstream/quota.js';
import type { BatchState } from './batch.js';
import type { CacheEntry } from './entries.js';

const FORMAT_VERSION = 1;

const EMPTY_BATCH: BatchState = {
  latestAsOf: null,
  latestAsOfText: null,
  methodologyVersion: null,
  firstSeenAt: null,
  confirmedAt: null,
};
const WRITE_DELAY_MS = 250;

/** Cache files hold API data: only this user may read them. */
const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

const entrySchema = z.object({
  key: z.string(),
  fetchedAt: z.number(),
  asOf: z.number().nullable(),
  value: z.unknown(),
  size: z.number(),
});

/** Entries are checked one by one: one bad entry is dropped, the rest are kept. */
const snapshotSchema = z.object({
  version: z.literal(FORMAT_VERSION),
  savedAt: z.number(),
  batch: z.object({
    latestAsOf: z.number().nullable(),
    latestAsOfText: z.string().nullable(),
    methodologyVersion: z.string().nullable(),
    firstSeenAt: z.number().nullable(),
    confirmedAt: z.number().nullable(),
  }),
  /** Older files kept the quota log here; it has its own file now. */
  quota: quotaStateSchema.optional(),
  entries: z.array(z.unknown()),
});

const quotaFileSchema = z.object({ version: z.literal(FORMAT_VERSION), quota: quotaStateSchema });

export interface Snapshot {
  batch: BatchState;
  quota: QuotaState;
  entries: CacheEntry[];
}

/** Whether a persisted value is one the BFF can serve for its key (the resource's own schema). */
export type ValueCheck = (key: string, value: unknown) => boolean;

/**
 * The cache file: one per upstream, named by mode and a hash of the base URL (never the key), so
 * demo and live data never mix and no secret reaches the disk. Written atomically (temp file +
 * rename, mode 0600), a moment after changes, and once more on close. The quota log has a file of
 * its own (small, written first), so a cache file that is damaged or too big to write never takes
 * the memory of what this hour has spent with it. On load every entry is checked against its
 * resource's schema and bad ones are dropped; temp files left by a killed process are removed.
 */
export class CachePersistence {
  readonly file: string;
  readonly quotaFile: string;
  #timer: NodeJS.Timeout | null = null;
  #writing: Promise<void> | null = null;
  #dirty = false;

  constructor(
    private readonly dir: string,
    mode: 'demo' | 'live',
    baseUrl: string,
    private readonly snapshot: () => Snapshot,
    private readonly logger: FastifyBaseLogger,
    private readonly valueCheck: ValueCheck = () => true,
  ) {
    const hash = createHash('sha256').update(baseUrl).digest('hex').slice(0, 16);
    this.file = join(dir, `cache-${mode}-${hash}.json`);
    this.quotaFile = join(dir, `quota-${mode}-${hash}.json`);
  }

  /** Reads the files; missing is a cold start, damaged a warning and as much as can be kept. */
  load(): Snapshot | null {
    this.#removeTempFiles();
    const quota = this.#loadQuota();
    const text = this.#read(this.file);
    let parsed: z.infer<typeof snapshotSchema> | null = null;
    if (text !== null) {
      try {
        parsed = snapshotSchema.parse(JSON.parse(text));
      } catch {
        this.logger.warn({ file: this.file }, 'cache file corrupt; starting with an empty cache');
      }
    }
    const quotaState = quota ?? parsed?.quota ?? null;
    if (!parsed && !quotaState) return null;
    const entries: CacheEntry[] = [];
    let dropped = 0;
    for (const raw of parsed?.entries ?? []) {
      const entry = entrySchema.safeParse(raw);
      if (entry.success && this.valueCheck(entry.data.key, entry.data.value))
        entries.push(entry.data);
      else dropped++;
    }
    if (dropped > 0) {
      this.logger.warn({ file: this.file, dropped }, 'cache file entries invalid; dropped them');
    }
    return {
      batch: parsed?.batch ?? EMPTY_BATCH,
      quota: quotaState ?? emptyQuotaState(),
      entries,
    };
  }

  #read(file: string): string | null {
    try {
      return readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        this.logger.warn({ file }, 'cache file unreadable; starting without it');
      }
      return null;
    }
  }

  #loadQuota(): QuotaState | null {
    const text = this.#read(this.quotaFile);
    if (text === null) return null;
    try {
      return quotaFileSchema.parse(JSON.parse(text)).quota;
    } catch {
      this.logger.warn({ file: this.quotaFile }, 'quota file corrupt; the hour is counted afresh');
      return null;
    }
  }

  /** `*.tmp` of our files from a process that was killed mid-write (never renamed). */
  #removeTempFiles(): void {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return;
    }
    const prefixes = [this.file, this.quotaFile].map((f) => `${f.slice(this.dir.length + 1)}.`);
    for (const name of names) {
      if (name.endsWith('.tmp') && prefixes.some((p) => name.startsWith(p))) {
        rmSync(join(this.dir, name), { force: true });
      }
    }
  }

  schedule(): void {
    this.#dirty = true;
    if (this.#timer !== null) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.#flush();
    }, WRITE_DELAY_MS);
    this.#timer.unref();
  }

  /** Final synchronous write on close, so nothing fetched is lost. */
  async close(): Promise<void> {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#writing;
    if (!this.#dirty) return;
    try {
      makeFolder(this.dir, { mode: DIR_MODE });
      for (const [file, text] of this.#serialise()) {
        const temp = `${file}.${process.pid}.tmp`;
        writeFileSync(temp, text, { mode: FILE_MODE });
        renameSync(temp, file);
      }
      this.#dirty = false;
    } catch (error) {
      this.logger.error({ file: this.file, err: error }, 'could not write the cache file');
    }
  }

  async #flush(): Promise<void> {
    if (this.#writing) {
      await this.#writing;
      if (this.#timer === null && this.#dirty) this.schedule();
      return;
    }
    this.#dirty = false;
    this.#writing = (async () => {
      try {
        makeFolder(this.dir, { mode: DIR_MODE });
        for (const [file, text] of this.#serialise()) {
          const temp = `${file}.${process.pid}.tmp`;
          await writeFile(temp, text, { mode: FILE_MODE });
          await rename(temp, file);
        }
      } catch (error) {
        this.#dirty = true;
        this.logger.error({ file: this.file, err: error }, 'could not write the cache file');
      }
    })();
    await this.#writing;
    this.#writing = null;
  }

  /** The quota file first: it is small and what matters most after a crash. */
  #serialise(): Array<[string, string]> {
    const { batch, quota, entries } = this.snapshot();
    return [
      [this.quotaFile, JSON.stringify({ version: FORMAT_VERSION, quota })],
      [this.file, JSON.stringify({ version: FORMAT_VERSION, savedAt: Date.now(), batch, entries })],
    ];
  }
}
