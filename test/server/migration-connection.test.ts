import { createServer, connect, type Server, type Socket } from 'node:net';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openConnection } from '../../src/server/store/connection.js';
import { Secret } from '../../src/server/secret.js';
import { freshPostgresDatabase } from '../helpers/history-store.js';

/*
 * The store's migration connection when the server ends it during start-up (a restart, an
 * operator's pg_terminate_backend). pg emits an 'error' on the client when the server's goodbye
 * arrives while no query of it is running; with no listener that event is thrown and ends the
 * process with a stack trace, where start-up should fail in words.
 *
 * Ended while a query runs (the pg_advisory_lock wait), the query takes the error and the opening
 * ends the client before the socket closes: no 'error' event. The window is between two queries,
 * too short to hit by timing, so a relay holds the server's bytes until the server has ended the
 * connection and hands them over at once: "ready for a query" and the FATAL goodbye arrive in one
 * read, before the opening sends its first query.
 */

let observer: pg.Client | null = null;
let relay: Server | null = null;
afterEach(async () => {
  await observer?.end();
  observer = null;
  await new Promise((done) => (relay ? relay.close(done) : done(undefined)));
  relay = null;
});

/** A relay to PostgreSQL that passes the server's bytes on only once the server has hung up. */
async function heldRelay(target: URL): Promise<string> {
  relay = createServer((client: Socket) => {
    const server = connect(Number(target.port), target.hostname);
    const held: Buffer[] = [];
    client.on('data', (chunk) => server.write(chunk));
    server.on('data', (chunk: Buffer) => held.push(chunk));
    server.on('end', () => client.end(Buffer.concat(held)));
    client.on('error', () => server.destroy());
    server.on('error', () => client.destroy());
  });
  await new Promise<void>((done) => relay!.listen(0, '127.0.0.1', done));
  const address = relay.address();
  if (typeof address !== 'object' || !address) throw new Error('the relay has no port');
  const via = new URL(target);
  via.port = String(address.port);
  return via.toString();
}

describe('the migration connection ended by the server during start-up', () => {
  it('between queries: opening fails in words, nothing is thrown at the process', async () => {
    const url = await freshPostgresDatabase();
    observer = new pg.Client({ connectionString: url });
    await observer.connect();

    const failed = openConnection({
      dataDir: null,
      databaseUrl: new Secret(await heldRelay(new URL(url))),
    }).then(
      () => null,
      (error: unknown) => error,
    );
    // The opening's backend: signed in and idle, its "ready" still held by the relay.
    const backend = await vi.waitFor(
      async () => {
        const { rows } = await observer!.query<{ pid: number }>(
          `select pid from pg_stat_activity
            where datname = current_database() and pid <> pg_backend_pid() and state = 'idle'`,
        );
        expect(rows).toHaveLength(1);
        return rows[0]!.pid;
      },
      { timeout: 10_000 },
    );
    await observer.query('select pg_terminate_backend($1)', [backend]);

    const error = await failed;
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/connection error|terminat/i);
  });
});
