import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';

/*
 * The store writes every statement as a drizzle `sql` template. Most run through the Database;
 * the quota ledger and the shared answers run theirs on one pg connection the caller holds (the
 * answer's advisory lock is a session lock, and the ledger booking shares that connection), so
 * these helpers run a template on a given connection.
 */
const dialect = new PgDialect();

/** Runs one statement on this connection (or the pool); `config` adds pg's per-query options. */
export async function queryOn(
  on: pg.Pool | pg.PoolClient,
  statement: SQL,
  config: Partial<pg.QueryConfig> = {},
): Promise<Record<string, unknown>[]> {
  const { sql: text, params } = dialect.sqlToQuery(statement);
  const result = await on.query({ ...config, text, values: params } as pg.QueryConfig);
  return result.rows as Record<string, unknown>[];
}

/** The miss's own connection when it holds one, else one from the pool for this call only. */
export type Connections = pg.Pool | pg.PoolClient;

export async function onOneConnection<T>(
  on: Connections,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  if ('release' in on) return work(on);
  const client = await on.connect();
  let failure: Error | undefined;
  try {
    return await work(client);
  } catch (error) {
    failure = error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    // A connection that failed mid-transaction is not handed to the next caller.
    client.release(failure);
  }
}
