import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { onOneConnection, queryOn, type Connections } from './on-connection.js';

/*
 * The quota ledger every replica books its upstream requests in (table quota_ledger in
 * replicas-schema.ts), on a connection the caller may hold (a miss books on the connection that
 * holds its answer lock).
 */

/**
 * Reads the ledger's state under `FOR UPDATE`, lets `change` decide, writes what it returns: one
 * transaction, so two replicas never both spend the last request. On a miss's own connection it
 * is a transaction of its own, committed before the request is sent (the answer's lock is a
 * session lock, apart from it), so the row is locked for the booking only.
 */
export async function updateLedger<R>(
  on: Connections,
  change: (state: unknown) => { state: unknown; result: R },
): Promise<R> {
  return onOneConnection(on, async (client) => {
    await queryOn(client, sql`begin`);
    try {
      await queryOn(
        client,
        sql`insert into quota_ledger (id, state) values (1, '{}'::jsonb) on conflict do nothing`,
      );
      const rows = await queryOn(
        client,
        sql`select state from quota_ledger where id = 1 for update`,
      );
      const { state, result } = change(rows[0]?.state ?? null);
      await queryOn(
        client,
        sql`update quota_ledger set state = ${JSON.stringify(state)}::jsonb where id = 1`,
      );
      await queryOn(client, sql`commit`);
      return result;
    } catch (error) {
      await queryOn(client, sql`rollback`).catch(() => undefined);
      throw error;
    }
  });
}

export async function readLedger(pool: pg.Pool): Promise<unknown> {
  const rows = await queryOn(pool, sql`select state from quota_ledger where id = 1`);
  return rows[0]?.state ?? null;
}
