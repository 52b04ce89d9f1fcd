import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { QuotaState } from '../upstream/quota.js';
import type { BatchState } from './batch.js';
import type { CacheEntry } from './store.js';

const FORMAT_VERSION = 1;
const WRITE_DELAY_MS = 250;

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
  quota: z.object({
    sent: z.array(z.number()),
    limit: z.number().nullable(),
    headerRemaining: z.number().nullable(),
    headerAt: z.number().nullable(),
    sentSinceHeader: z.number().int().min(0),
    blockedUntil: z.number().nullable(),
  }),
  entries: z.array(
    z.object({
      key: z.string(),
      fetchedAt: z.number(),
      asOf: z.number().nullable(),
      value: z.unknown(),
      size: z.number(),
    }),
  ),
});

export interface Snapshot {
  batch: BatchState;
  quota: QuotaState;
  entries: CacheEntry[];
}

/**
 * The cache file: one per upstream, named by mode and a hash of the base URL (never the key), so
 * demo and live data never mix and no secret reaches the disk. Written atomically (temp file +
 * rename), a moment after changes, and once more on close. The quota log is kept too, so a
 * restart remembers what this hour has already spent.
 */
export class CachePersistence {
  readonly file: string;
  #timer: NodeJS.Timeout | null = null;
  #writing: Promise<void> | null = null;
  #dirty = false;

  constructor(
    private readonly dir: string,
    mode: 'demo' | 'live',
    baseUrl: string,
    private readonly snapshot: () => Snapshot,
    private readonly logger: FastifyBaseLogger,
  ) {
    const hash = createHash('sha256').update(baseUrl).digest('hex').slice(0, 16);
    this.file = join(dir, `cache-${mode}-${hash}.json`);
  }

  /** Reads the file; a missing file is a cold start, a corrupt one a warning and a cold start. */
  load(): Snapshot | null {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        this.logger.warn(
          { file: this.file },
          'cache file unreadable; starting with an empty cache',
        );
      }
      return null;
    }
    try {
      const parsed = snapshotSchema.parse(JSON.parse(text));
      return { batch: parsed.batch, quota: parsed.quota, entries: parsed.entries };
    } catch {
      this.logger.warn({ file: this.file }, 'cache file corrupt; starting with an empty cache');
      return null;
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
      mkdirSync(this.dir, { recursive: true });
      const temp = `${this.file}.${process.pid}.tmp`;
      writeFileSync(temp, this.#serialise());
      renameSync(temp, this.file);
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
        mkdirSync(this.dir, { recursive: true });
        const temp = `${this.file}.${process.pid}.tmp`;
        await writeFile(temp, this.#serialise());
        await rename(temp, this.file);
      } catch (error) {
        this.#dirty = true;
        this.logger.error({ file: this.file, err: error }, 'could not write the cache file');
      }
    })();
    await this.#writing;
    this.#writing = null;
  }

  #serialise(): string {
    const { batch, quota, entries } = this.snapshot();
    return JSON.stringify({ version: FORMAT_VERSION, savedAt: Date.now(), batch, quota, entries });
  }
}
