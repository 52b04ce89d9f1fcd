import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';

/**
 * The pooled connection a cache miss holds (with its key's lock) while it asks the upstream.
 * What the upstream client books for that miss meanwhile (the ledger's grant, the answer's
 * rate-limit headers) runs on it, so a miss never waits for a second pooled connection while it
 * holds one: on a small pool, misses holding every connection while each waited for another
 * stalled until the pool's connect timeout, and the replica took that for PostgreSQL being down.
 */
export class MissConnections {
  readonly #current = new AsyncLocalStorage<HeldConnection>();

  /**
   * Runs `work` as the miss holding `client`; settles once what was booked on it is done, so the
   * caller may then use the connection again (and let go of the lock).
   */
  async hold<T>(client: pg.PoolClient, work: () => Promise<T>): Promise<T> {
    const held = new HeldConnection(client);
    try {
      return await this.#current.run(held, work);
    } finally {
      await held.close();
    }
  }

  /**
   * `use` run on the connection of the miss this call belongs to, after what was queued on it
   * before; null when the call belongs to no miss holding one (then it takes one from the pool).
   */
  onHeld<T>(use: (client: pg.PoolClient) => Promise<T>): Promise<T> | null {
    return this.#current.getStore()?.run(use) ?? null;
  }
}

class HeldConnection {
  #queue: Promise<unknown> = Promise.resolve();
  #open = true;

  constructor(private readonly client: pg.PoolClient) {}

  /** One user at a time: a connection runs one transaction at once. */
  run<T>(use: (client: pg.PoolClient) => Promise<T>): Promise<T> | null {
    // Work started by the miss may outlive it (a write queued late): that goes to the pool.
    if (!this.#open) return null;
    const result = this.#queue.then(() => use(this.client));
    this.#queue = result.catch(() => undefined);
    return result;
  }

  async close(): Promise<void> {
    this.#open = false;
    await this.#queue;
  }
}
