import type { StoreHealthStatus } from '../../shared/bff-api.js';
import type { HistoryCoverage } from '../../shared/history-api.js';
import type { RiskEvent } from '../../shared/schemas/event.js';
import {
  deleteBatchesBefore,
  hasBatch,
  insertBatch,
  selectBatchAtOrBefore,
  selectBatches,
  selectCountryRows,
  selectCountrySeen,
  selectOldestBatch,
  selectCountrySeries,
  selectCoverage,
  selectLatestBatches,
  sealClosedMonths,
  type BatchRecord,
  type BatchRow,
  type CountryRow,
} from './batches.js';
import { ChainBackfill, type ChainBackfillState } from './batch-chain-backfill.js';
import {
  selectBatchContents,
  selectChainAt,
  selectChainEntry,
  selectChainEntryOfBatch,
  selectChainIds,
  selectChainPage,
  selectChainRun,
  type ChainEntry,
} from './batch-chain.js';
import type { BatchContent } from '../../shared/batches-api.js';
import { deleteMonthsBefore, selectCountryPoints, type Range } from './series.js';
import type { MonthPoint } from './schema.js';
import { resolve } from 'node:path';
import { errorWords } from '../safe-error.js';
import {
  openConnection,
  StoreTooNewError,
  type Connection,
  type ConnectionOptions,
} from './connection.js';
import { DataDirLockedError } from './data-dir-lock.js';
import { guardStatements, StoreHealth } from './store-health.js';
import {
  deleteEventsBefore,
  insertEvents,
  selectEvents,
  type EventQuery,
  type FoundEvent,
} from './events.js';
import { DAY_MS } from '../../shared/durations.js';

export type { BatchRecord, BatchRow, CountryRow } from './batches.js';
export type { Range } from './series.js';
export type { EventQuery, EventRow, FoundEvent } from './events.js';
export type { MonthPoint } from './schema.js';
export type { ChainEntry } from './batch-chain.js';
export type { ChainBackfillState } from './batch-chain-backfill.js';

export interface HistoryStoreOptions extends ConnectionOptions {
  /** Keep batches and events this many days; null keeps everything. */
  retentionDays: number | null;
}

/** The embedded store could not be opened; the message names its folder and the reason. */
export class StoreOpenError extends Error {
  override name = 'StoreOpenError';
}

/**
 * Opens the connection; a failure of the embedded store says which folder and why in words
 * (PGlite's file-system errors are objects with a number and no message).
 */
async function openNamingFolder(options: HistoryStoreOptions): Promise<Connection> {
  try {
    return await openConnection(options);
  } catch (error) {
    const own = error instanceof DataDirLockedError || error instanceof StoreTooNewError;
    if (own || options.databaseUrl || !options.dataDir) throw error;
    const folder = resolve(options.dataDir, 'history');
    throw new StoreOpenError(
      `The history store in ${folder} could not be opened: ${errorWords(error)}`,
      { cause: error },
    );
  }
}

/**
 * The BFF's memory: every recorded batch, its country rows, and the event archive. The one
 * owner of the database connection; routes and jobs go through it, SQL stays in this folder.
 * `revision` changes whenever what the store answers may have changed (a batch recorded or found
 * recorded by another process, events archived, retention applied), so answers built from it can
 * be memoised until then.
 */
export class HistoryStore {
  #batchRevision = 0;
  #eventRevision = 0;
  #coverage: HistoryCoverage = { since: null, latest: null, batches: 0, demo_seeded: false };
  /** Told when a new batch was recorded (alert evaluation, issue 8); set up once at start. */
  readonly #recordedListeners = new Set<() => void>();
  readonly #decidedListeners = new Set<() => void>();
  readonly #chainBackfill: ChainBackfill;

  private constructor(
    private readonly connection: Connection,
    readonly retentionDays: number | null,
    /** The embedded store's folder, watched around every statement; null for PostgreSQL. */
    private readonly folderHealth: StoreHealth | null,
  ) {
    this.#chainBackfill = new ChainBackfill(connection.db);
  }

  static async open(options: HistoryStoreOptions): Promise<HistoryStore> {
    const connection = await openNamingFolder(options);
    let health: StoreHealth | null = null;
    if (connection.kind === 'pglite' && options.dataDir) {
      health = new StoreHealth(resolve(options.dataDir, 'history'));
      guardStatements((connection.db as unknown as { $client: object }).$client, health);
    }
    const store = new HistoryStore(connection, options.retentionDays, health);
    // A store recorded before the monthly blocks existed gets them here, once (seconds at two
    // years); afterwards there is nothing to seal at start-up.
    await sealClosedMonths(store.connection.db);
    // Batches recorded before the chain existed get their ids in the background, oldest first
    // (once: afterwards each batch is chained as it is recorded); the open does not wait for it.
    await store.#chainBackfill.start();
    await store.coverage();
    return store;
  }

  /** Coverage as of this store's last write or read of it (for synchronous status answers). */
  get lastCoverage(): HistoryCoverage {
    return this.#coverage;
  }

  /** The embedded store's health for `/readyz` and `/api/status`; null for PostgreSQL. */
  health(): StoreHealthStatus | null {
    return this.folderHealth?.status() ?? null;
  }

  get kind(): Connection['kind'] {
    return this.connection.kind;
  }

  /** PostgreSQL's pool (replicas coordinate on it); null for the embedded store. */
  get pool(): Connection['pool'] {
    return this.connection.pool;
  }

  /**
   * Another replica wrote to the store (a batch recorded, events archived): answers memoised
   * from it are out of date, and the coverage is read again.
   */
  async changedElsewhere(): Promise<void> {
    this.#batchRevision += 1;
    this.#eventRevision += 1;
    await this.coverage();
  }

  /** The query builder, for this folder's other table families (watchlists and alerts). */
  get db(): Connection['db'] {
    return this.connection.db;
  }

  /** Changes when batch answers may have changed. */
  get batchRevision(): number {
    return this.#batchRevision;
  }

  /** Changes when event answers may have changed. */
  get eventRevision(): number {
    return this.#eventRevision;
  }

  /** Records a batch once (idempotent on `as_of`); `recorded` is false when it was there. */
  async recordBatch(record: BatchRecord): Promise<{ recorded: boolean; batchId: number | null }> {
    const batchId = await insertBatch(this.connection.db, record);
    this.#batchRevision += 1;
    await this.coverage();
    if (batchId !== null && record.countries.length > 0) {
      for (const listener of this.#recordedListeners) listener();
    }
    return { recorded: batchId !== null, batchId };
  }

  /**
   * An admin decided a method change comparable (issue 31): the history answers carry the
   * decision, so they are built again (and other replicas are told, by the listeners).
   */
  methodDecided(): void {
    this.#batchRevision += 1;
    for (const listener of this.#decidedListeners) listener();
  }

  /** Calls `listener` after each `methodDecided` here; returns a remover. */
  onMethodDecided(listener: () => void): () => void {
    this.#decidedListeners.add(listener);
    return () => this.#decidedListeners.delete(listener);
  }

  /** Calls `listener` after each newly recorded batch with country rows; returns a remover. */
  onBatchRecorded(listener: () => void): () => void {
    this.#recordedListeners.add(listener);
    return () => this.#recordedListeners.delete(listener);
  }

  /** True when the batch is recorded with its country rows. */
  hasBatch(asOf: Date): Promise<boolean> {
    return hasBatch(this.connection.db, asOf);
  }

  /** Archives events received for `iso`; returns how many were new. */
  async archiveEvents(iso: string, events: readonly RiskEvent[], seenAt: Date): Promise<number> {
    const added = await insertEvents(this.connection.db, iso, events, seenAt);
    if (added > 0) this.#eventRevision += 1;
    return added;
  }

  async coverage(): Promise<HistoryCoverage> {
    const c = await selectCoverage(this.connection.db);
    this.#coverage = {
      since: c.since?.toISOString() ?? null,
      latest: c.latest?.toISOString() ?? null,
      batches: c.batches,
      demo_seeded: c.demoSeeded,
    };
    return this.#coverage;
  }

  /** Batch rows (global values; global-only points included), oldest first. */
  batches(range: Range): Promise<BatchRow[]> {
    return selectBatches(this.connection.db, range);
  }

  /** One country's rows, oldest first. */
  countrySeries(iso: string, range: Range): Promise<CountryRow[]> {
    return selectCountrySeries(this.connection.db, iso, range);
  }

  /**
   * One country's history in `range` (points oldest first, in the API's shape with the name),
   * read from its monthly blocks: ~24 rows for two years instead of 1,460. `bytes`: the points'
   * size as JSON (about; names included), so the answer need not be serialised to be measured.
   */
  async countryHistory(
    iso: string,
    range: Range,
  ): Promise<{ first: Date | null; last: Date | null; points: MonthPoint[]; bytes: number }> {
    const db = this.connection.db;
    if (range.from || range.to) {
      const seen = await selectCountrySeen(db, iso);
      return { ...seen, ...(await selectCountryPoints(db, iso, range, seen.first)) };
    }
    // The whole history: first and last seen are its first and last points.
    const oldest = await selectOldestBatch(db);
    const { points, bytes } = await selectCountryPoints(db, iso, range, oldest);
    const first = points[0]?.as_of;
    const last = points.at(-1)?.as_of;
    const seen = { first: first ? new Date(first) : null, last: last ? new Date(last) : null };
    return { ...seen, points, bytes };
  }

  /** First and last batch the country was in (whatever range was asked). */
  countrySeen(iso: string): Promise<{ first: Date | null; last: Date | null }> {
    return selectCountrySeen(this.connection.db, iso);
  }

  /** The newest batch with country rows at or before `at` (the newest of all when null). */
  batchAtOrBefore(at: Date | null): Promise<BatchRow | null> {
    return selectBatchAtOrBefore(this.connection.db, at);
  }

  /** The newest `n` batches with country rows, newest first. */
  latestBatches(n: number): Promise<BatchRow[]> {
    return selectLatestBatches(this.connection.db, n);
  }

  /** Every country row of one batch. */
  countryRows(batchId: number): Promise<CountryRow[]> {
    return selectCountryRows(this.connection.db, batchId);
  }

  /** Chain entries of held batches, newest first, older than `before`. */
  chainPage(before: Date | null, limit: number): Promise<ChainEntry[]> {
    return selectChainPage(this.connection.db, before, limit);
  }

  /** The chain entry with this id (digest), or null. */
  chainEntry(id: string): Promise<ChainEntry | null> {
    return selectChainEntry(this.connection.db, id);
  }

  /** The chain entry of a stored batch (by its row id), or null. */
  chainEntryOfBatch(batchId: number): Promise<ChainEntry | null> {
    return selectChainEntryOfBatch(this.connection.db, batchId);
  }

  /** The chain ids (digests) of these stored batches, by batch row id. */
  chainIds(batchIds: readonly number[]): Promise<Map<number, string>> {
    return selectChainIds(this.connection.db, batchIds);
  }

  /** The chain entry at `position`, or null. */
  chainAt(position: number): Promise<ChainEntry | null> {
    return selectChainAt(this.connection.db, position);
  }

  /** Up to `limit` chain entries after `afterPosition`, in chain order. */
  chainRun(afterPosition: number, limit: number): Promise<ChainEntry[]> {
    return selectChainRun(this.connection.db, afterPosition, limit);
  }

  /** The content (as the ids cover it) of each batch of `batchIds` still stored. */
  batchContents(batchIds: readonly number[]): Promise<Map<number, BatchContent>> {
    return selectBatchContents(this.connection.db, batchIds);
  }

  /** Archived events, newest first: up to `limit + 1` rows (one more tells a next page exists). */
  events(query: EventQuery): Promise<FoundEvent[]> {
    return selectEvents(this.connection.db, query);
  }

  /** The oldest time a query may reach under the retention (null: no limit). */
  retentionStart(now: number): Date | null {
    return this.retentionDays === null ? null : new Date(now - this.retentionDays * DAY_MS);
  }

  /** Applies HISTORY_RETENTION_DAYS; returns what was removed. */
  async prune(now: number): Promise<{ batches: number; events: number }> {
    const cutoff = this.retentionStart(now);
    if (!cutoff) return { batches: 0, events: 0 };
    const removed = {
      batches: await deleteBatchesBefore(this.connection.db, cutoff),
      events: await deleteEventsBefore(this.connection.db, cutoff),
    };
    if (removed.batches > 0) {
      await deleteMonthsBefore(this.connection.db, cutoff);
      this.#batchRevision += 1;
      await this.coverage();
    }
    if (removed.events > 0) this.#eventRevision += 1;
    return removed;
  }

  /** Whether batches recorded before the chain existed still wait for their ids. */
  chainBackfill(): ChainBackfillState {
    return this.#chainBackfill.state();
  }

  /** Resolves when the background chaining of old batches has finished. */
  chainBackfillDone(): Promise<void> {
    return this.#chainBackfill.done();
  }

  async close(): Promise<void> {
    await this.#chainBackfill.stop();
    return this.connection.close();
  }
}
