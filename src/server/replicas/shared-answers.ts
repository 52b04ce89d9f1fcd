import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type { AnswerSource, Fetched, ResourceSpec } from '../cache/resource-cache.js';
import { isServableValue } from '../services/upstream-resources/resource-specs.js';
import {
  readAnswer,
  withAnswerLock,
  writeAnswer,
  type StoredAnswer,
} from '../store/shared-answers.js';
import { isStoreUnreachable } from '../store/connection.js';
import type { Purpose } from '../upstream/quota.js';
import type { MissConnections } from './miss-connections.js';

export interface SharedAnswersDeps {
  pool: pg.Pool;
  now: () => number;
  logger: FastifyBaseLogger;
  /** Longest wait for another replica fetching the same key (its upstream request and retries). */
  lockWaitMs: number;
  reportStore: (ok: boolean, error?: unknown) => void;
  /** False while PostgreSQL is known unreachable: misses go straight on, not via a 3 s timeout. */
  storeOk: () => boolean;
  /** Lends the lock's connection to the ledger while the miss asks the upstream. */
  connections: MissConnections;
}

/**
 * The second level of every replica's memory cache: upstream answers any replica fetched, in
 * PostgreSQL. A miss first looks there; when nothing good enough is there, the replica takes the
 * key's advisory lock, looks again (another replica may just have fetched it), and only then asks
 * the upstream, writing the answer before it lets go. So replicas missing the same key at once
 * spend one request. The request is booked in the ledger on the same connection: a miss needs
 * one pooled connection at a time, so on a small pool misses queue, never stall. Without the
 * database, a miss goes straight to the upstream, as one process would (the budget ledger still
 * limits what that can spend).
 */
export class SharedAnswers implements AnswerSource {
  constructor(private readonly deps: SharedAnswersDeps) {}

  async lookup<V>(
    key: string,
    wanted: (answer: { fetchedAt: number; asOf: number | null }) => boolean,
  ): Promise<Fetched<V> | null> {
    if (!this.deps.storeOk()) return null;
    try {
      return this.#usable<V>(key, await readAnswer(this.deps.pool, key), wanted);
    } catch (error) {
      this.deps.reportStore(false, error);
      return null;
    }
  }

  async fetch<V>(
    spec: ResourceSpec<V>,
    purpose: Purpose,
    wanted: (answer: { fetchedAt: number; asOf: number | null }) => boolean,
  ): Promise<Fetched<V>> {
    const { pool, lockWaitMs, reportStore, connections } = this.deps;
    // The heartbeat finds out when the database is back.
    if (!this.deps.storeOk()) return spec.fetch(purpose);
    // No read before the lock: a miss has looked already (`lookup`), and a background refresh
    // reads under the lock below, where it counts.
    let fetched: Fetched<V> | undefined;
    let upstreamFailure: unknown;
    try {
      return await withAnswerLock(pool, spec.key, lockWaitMs, async (client) => {
        const found = this.#usable<V>(spec.key, await readAnswer(client, spec.key), wanted);
        if (found) return found;
        try {
          fetched = await connections.hold(client, () => spec.fetch(purpose));
        } catch (error) {
          upstreamFailure = error;
          throw error;
        }
        await writeAnswer(client, spec.key, this.#stored(fetched));
        return fetched;
      });
    } catch (error) {
      if (upstreamFailure !== undefined) throw upstreamFailure;
      // The answer is good even if sharing it failed.
      if (fetched) return fetched;
      // The database failed (or a wait ran out) before anything was sent: ask without it.
      if (isStoreUnreachable(error)) reportStore(false, error);
      this.deps.logger.warn(
        { key: spec.key, reason: error instanceof Error ? error.message : String(error) },
        'shared answer cache unavailable for this miss; asking the upstream directly',
      );
      return spec.fetch(purpose);
    }
  }

  /** A stored answer as a fetch result, when it is good and as good as fetching now. */
  #usable<V>(
    key: string,
    stored: StoredAnswer | null,
    wanted: (answer: { fetchedAt: number; asOf: number | null }) => boolean,
  ): Fetched<V> | null {
    if (!stored || !wanted(stored)) return null;
    let value: unknown;
    try {
      value = JSON.parse(stored.value);
    } catch {
      return null;
    }
    // Checked as the cache file is: a row written by another version is not trusted blindly.
    if (!isServableValue(key, value)) return null;
    return {
      value: value as V,
      fetchedAt: stored.fetchedAt,
      asOfText: stored.asOfText,
      methodologyVersion: stored.methodologyVersion,
      size: stored.size,
    };
  }

  #stored(fetched: Fetched<unknown>): StoredAnswer {
    const asOf = fetched.asOfText === null ? null : Date.parse(fetched.asOfText);
    return {
      fetchedAt: this.deps.now(),
      asOf: asOf === null || Number.isNaN(asOf) ? null : asOf,
      asOfText: fetched.asOfText,
      methodologyVersion: fetched.methodologyVersion ?? null,
      size: fetched.size,
      value: JSON.stringify(fetched.value),
    };
  }
}
