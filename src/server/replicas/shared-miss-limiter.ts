import { checkMiss, ClientLimitError, HOUR_MS, type ClientMissLimiter } from '../client-limit.js';
import type { Refund } from '../cache/resource-cache.js';
import type { Database } from '../store/connection.js';
import { recordMiss, removeMiss } from '../store/client-misses.js';

export interface SharedMissLimiterDeps {
  db: Database;
  now: () => number;
  perMinute: number;
  /** This process's limiter: its hourly allowance, and the rule while PostgreSQL is down. */
  local: ClientMissLimiter;
  reportStore: (ok: boolean, error?: unknown) => void;
}

/**
 * The per-client miss limits held across replicas: a client's misses are counted in PostgreSQL,
 * so spreading requests over replicas (the load balancer does that by itself) earns no more.
 * Without the database, each replica counts on its own again.
 */
export class SharedMissLimiter {
  constructor(private readonly deps: SharedMissLimiterDeps) {}

  async consume(client: string): Promise<Refund> {
    const { db, now, perMinute, local, reportStore } = this.deps;
    const at = now();
    let id: number;
    try {
      id = await recordMiss(db, client, at, at - HOUR_MS, (recent) =>
        checkMiss(recent, at, perMinute, local.hourlyAllowance()),
      );
    } catch (error) {
      if (error instanceof ClientLimitError) throw error;
      reportStore(false, error);
      return local.consume(client);
    }
    reportStore(true);
    return () => {
      removeMiss(db, id).catch(() => undefined);
    };
  }
}
