import type pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  isStoreUnreachable,
  openConnection,
  type Connection,
} from '../../src/server/store/connection.js';
import { onOneConnection } from '../../src/server/store/on-connection.js';
import { withAnswerLock } from '../../src/server/store/shared-answers.js';
import { Secret } from '../../src/server/secret.js';
import { freshPostgresDatabase } from '../helpers/history-store.js';

/*
 * The store's PostgreSQL pool when a connection it lent out is ended by the server between two
 * queries (a restart, a shutdown, an operator's pg_terminate_backend: 57P01). A replica holds a
 * connection across other work (the answer lock while it fetches from the upstream, the ledger's
 * booking, a transaction), and pg-pool takes its own 'error' listener off a connection while it
 * is out: an 'error' event nobody listens to is thrown and ends the process. Seen in the
 * replicas' PostgreSQL-outage test: the leader died while a miss held its connection. Without
 * the pool's listener each case here fails as an unhandled error.
 */
let connection: Connection;
let pool: pg.Pool;
beforeEach(async () => {
  connection = await openConnection({
    dataDir: null,
    databaseUrl: new Secret(await freshPostgresDatabase()),
    poolMax: 2,
  });
  pool = connection.pool!;
});
afterEach(async () => {
  await connection.close();
});

/** Ends this connection from the server's side, then waits until the client has seen it end. */
async function endedByServer(client: pg.PoolClient): Promise<void> {
  const [{ pid }] = (await client.query('select pg_backend_pid() as pid')).rows as [
    { pid: number },
  ];
  // Not events.once: it rejects on the 'error' event, which is what is under test.
  const ended = new Promise<void>((resolve) => client.once('end', () => resolve()));
  await pool.query('select pg_terminate_backend($1)', [pid]);
  await ended;
}

async function poolServesOn(): Promise<void> {
  expect((await pool.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
  // The ended connection did not go back to the pool.
  expect(pool.totalCount).toBe(1);
}

describe('a lent connection that the server ends between queries', () => {
  it('under the answer lock: the work ends normally, the connection is dropped, the pool serves on', async () => {
    const answer = await withAnswerLock(pool, 'country|FRA', 1_000, async (client) => {
      await endedByServer(client);
      // The next statement on it fails in words instead, words that say the store is out of
      // reach (a route then answers 503 "the store cannot be reached", not a 500).
      const failed: unknown = await client.query('select 1').then(
        () => null,
        (e: unknown) => e,
      );
      expect(String(failed)).toMatch(/terminated|not queryable/i);
      expect(isStoreUnreachable(failed)).toBe(true);
      return 'fetched';
    });
    expect(answer).toBe('fetched');
    await poolServesOn();
  });

  it('on one connection for a call: the same', async () => {
    const answer = await onOneConnection(pool, async (client) => {
      await endedByServer(client);
      return 'booked';
    });
    expect(answer).toBe('booked');
    await poolServesOn();
  });

  it("in a transaction of the store's: the transaction fails, the process and the pool go on", async () => {
    // The connection drizzle takes for the transaction, as the pool announces it.
    let lent: pg.PoolClient | null = null;
    pool.once('acquire', (client: pg.PoolClient) => (lent = client));
    const outcome = await connection.db
      .transaction(async (tx) => {
        await endedByServer(lent!);
        await tx.execute('select 1');
      })
      .then(
        () => 'committed',
        (error: unknown) => (isStoreUnreachable(error) ? 'failed, store out of reach' : error),
      );
    expect(outcome).toBe('failed, store out of reach');
    await poolServesOn();
  });
});
