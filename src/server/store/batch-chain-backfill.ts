import { setImmediate as nextTurn } from 'node:timers/promises';
import { and, count, gt, isNull, eq } from 'drizzle-orm';
import { errorWords } from '../safe-error.js';
import { chainUnchainedBatches } from './batch-chain.js';
import { batchChain } from './batch-chain-schema.js';
import type { Database } from './connection.js';
import { batches } from './schema.js';

/** Where chaining the batches recorded before the chain existed stands. */
export type ChainBackfillState =
  { kind: 'done' } | { kind: 'running'; pending: number } | { kind: 'failed'; reason: string };

async function countUnchained(db: Database): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(batches)
    .leftJoin(batchChain, eq(batchChain.batchId, batches.id))
    .where(and(gt(batches.countryCount, 0), isNull(batchChain.position)));
  return Number(row?.n ?? 0);
}

/**
 * Chains a store's batches recorded before the chain existed, in the background after start-up
 * (32 s at two years kept the port closed when it ran inside the open): a small chunk per
 * transaction and an event-loop turn between chunks, so requests are answered meanwhile. Until
 * it is done, `state()` says how many batches have no id yet (the verification refuses to say
 * the chain holds while it is incomplete). A failure is kept and retried at the next start-up.
 */
export class ChainBackfill {
  #state: ChainBackfillState = { kind: 'done' };
  #stopping = false;
  #run: Promise<void> = Promise.resolve();

  constructor(private readonly db: Database) {}

  state(): ChainBackfillState {
    return this.#state;
  }

  /** Starts the backfill unless there is nothing to chain; resolves once it has started. */
  async start(): Promise<void> {
    const pending = await countUnchained(this.db);
    if (pending === 0) return;
    this.#state = { kind: 'running', pending };
    this.#run = this.#chainAll();
  }

  /** Resolves when the backfill has finished (or failed, or stopped). */
  done(): Promise<void> {
    return this.#run;
  }

  /** Stops after the chunk in progress (closing the store). */
  stop(): Promise<void> {
    this.#stopping = true;
    return this.#run;
  }

  async #chainAll(): Promise<void> {
    try {
      for (;;) {
        await nextTurn();
        if (this.#stopping) return;
        const chained = await chainUnchainedBatches(this.db);
        if (chained === 0) break;
        const left = this.#state.kind === 'running' ? this.#state.pending - chained : 0;
        this.#state = { kind: 'running', pending: Math.max(left, 1) };
      }
      this.#state = { kind: 'done' };
    } catch (error) {
      this.#state = { kind: 'failed', reason: errorWords(error) };
    }
  }
}
