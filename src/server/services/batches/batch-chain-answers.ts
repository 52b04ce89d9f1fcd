import {
  GENESIS_ID,
  type BatchListResponse,
  type BatchResponse,
  type ChainVerification,
} from '../../../shared/batches-api.js';
import { chainDigest } from '../../store/batch-chain.js';
import { selectBatchMethods, selectMethodChanges } from '../../store/method-changes.js';
import type { ChainEntry, HistoryStore } from '../../store/history-store.js';
import { TimeSlice } from '../../work/time-slice.js';
import { RevisionMemo } from '../history/revision-memo.js';

/**
 * Batches recomputed per read of the verification (~175 rows each: ~350 rows a read). The
 * embedded store answers each read on the main thread (PGlite is one WASM instance there), in
 * one stretch the loop cannot break: a read of 10 batches took 125-137 ms at load 17 (about
 * 50-60 ms on a quiet machine, the verification's loop-delay p99 of 63 ms), a read of 2 about a
 * fifth of that for the same cost per batch. Hashing between reads yields every slice (issue 29).
 */
const VERIFY_CHUNK = 2;

type Broken = NonNullable<ChainVerification['broken_at']>;

/**
 * The chain cannot be verified yet: batches recorded before it existed are still being chained
 * in the background (store/batch-chain-backfill.ts), or that failed. Saying "holds" over the
 * part chained so far would be a claim about batches that have no id yet.
 */
export class ChainIncomplete extends Error {
  override name = 'ChainIncomplete';
  constructor(
    message: string,
    /** When asking again may help (null: not before a restart). */
    readonly retryAfterMs: number | null,
  ) {
    super(message);
  }
}

/** Asking again this soon while the backfill runs (~1 s per 20 batches under load). */
const BACKFILL_RETRY_MS = 10_000;

function broken(entry: ChainEntry | null, position: number, reason: string): Broken {
  return {
    position,
    id: entry?.digest ?? null,
    as_of: entry?.asOf.toISOString() ?? null,
    reason,
  };
}

/** The answers of `/api/batches*`: the chain's entries, a batch's content, the verification. */
export class BatchChainAnswers {
  /**
   * The verification of the chain as the store holds it now: it cannot change until a batch is
   * recorded (or retention removes one), so it is walked once per store revision and shared by
   * everyone who asks meanwhile, the walk in progress included.
   */
  readonly #verified = new RevisionMemo<ChainVerification>({ maxEntries: 1, maxBytes: 64 * 1024 });

  constructor(private readonly store: HistoryStore) {}

  async list(before: Date | null, limit: number): Promise<BatchListResponse> {
    const rows = await this.store.chainPage(before, limit + 1);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    const methods = await selectBatchMethods(
      this.store.db,
      page.map((row) => row.batchId),
    );
    const changes = new Map(
      (await selectMethodChanges(this.store.db)).map((c) => [
        c.batchId,
        { from: c.from, to: c.to, comparable: c.comparable },
      ]),
    );
    return {
      ok: true,
      batches: page.map((row) => ({
        id: row.digest,
        as_of: row.asOf.toISOString(),
        methodology_version: methods.get(row.batchId) ?? null,
        method_change: changes.get(row.batchId) ?? null,
      })),
      next_before: rows.length > limit && last ? last.asOf.toISOString() : null,
    };
  }

  /** A batch's content as its id covers it; null when no held batch has this id. */
  async batch(id: string): Promise<BatchResponse | null> {
    const entry = await this.store.chainEntry(id);
    if (!entry || entry.pruned) return null;
    const content = (await this.store.batchContents([entry.batchId])).get(entry.batchId);
    if (!content) return null;
    const previous = entry.position > 1 ? await this.store.chainAt(entry.position - 1) : null;
    return {
      ok: true,
      id: entry.digest,
      previous_id: previous?.digest ?? GENESIS_ID,
      position: entry.position,
      as_of: entry.asOf.toISOString(),
      content,
    };
  }

  /** Why the chain cannot be verified now (old batches still being chained), or null. */
  incomplete(): ChainIncomplete | null {
    const backfill = this.store.chainBackfill();
    if (backfill.kind === 'running') {
      return new ChainIncomplete(
        `the chain is not complete yet: ${backfill.pending} batch(es) recorded before batch ids ` +
          'existed are still being given their ids in the background; ask again shortly',
        BACKFILL_RETRY_MS,
      );
    }
    if (backfill.kind === 'failed') {
      return new ChainIncomplete(
        `the chain is not complete: giving ids to batches recorded before batch ids existed ` +
          `failed (${backfill.reason}); it is tried again at the next start`,
        null,
      );
    }
    return null;
  }

  /**
   * Recomputes the chain; one walk at a time, shared by whoever asks meanwhile. Refused
   * (ChainIncomplete) while batches recorded before the chain still wait for their ids.
   */
  verify(): Promise<ChainVerification> {
    const incomplete = this.incomplete();
    if (incomplete) return Promise.reject(incomplete);
    return this.#verified.get(
      this.store.batchRevision,
      'verify',
      async () => undefined,
      async () => ({ value: await this.#walk(), chars: 1024 }),
    );
  }

  async #walk(): Promise<ChainVerification> {
    let previousId: string | null = null;
    let expected = 0;
    let checked = 0;
    let head: ChainEntry | null = null;
    const answer = (brokenAt: Broken | null): ChainVerification => ({
      ok: true,
      holds: brokenAt === null,
      checked,
      head: head ? { id: head.digest, as_of: head.asOf.toISOString() } : null,
      broken_at: brokenAt,
    });
    const slice = new TimeSlice();
    for (;;) {
      await slice.yieldNow();
      const run = await this.store.chainRun(expected, VERIFY_CHUNK);
      if (run.length === 0) return answer(null);
      const contents = await this.store.batchContents(
        run.filter((entry) => !entry.pruned).map((entry) => entry.batchId),
      );
      for (const entry of run) {
        if (previousId === null) {
          // The first entry: position 1 links to the genesis id; a later one only when
          // retention removed its batch (it anchors what follows).
          if (entry.pruned) {
            previousId = entry.digest;
            expected = entry.position;
            continue;
          }
          if (entry.position !== 1) {
            return answer(
              broken(
                entry,
                entry.position,
                `the batches before position ${entry.position} are missing`,
              ),
            );
          }
          previousId = GENESIS_ID;
        } else if (entry.position !== expected + 1) {
          return answer(
            broken(
              null,
              expected + 1,
              `the batch at position ${expected + 1} is missing from the chain`,
            ),
          );
        }
        expected = entry.position;
        if (entry.pruned) {
          previousId = entry.digest;
          continue;
        }
        await slice.pause();
        const content = contents.get(entry.batchId);
        if (!content) {
          return answer(broken(entry, entry.position, 'the batch is missing from the store'));
        }
        if (chainDigest(previousId, content) !== entry.digest) {
          return answer(
            broken(entry, entry.position, 'its stored content no longer gives its id (changed)'),
          );
        }
        checked += 1;
        previousId = entry.digest;
        head = entry;
      }
    }
  }
}
