import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { queryOn } from './on-connection.js';

/*
 * Upstream answers any replica fetched (table upstream_answers in replicas-schema.ts), and the
 * per-key advisory lock that makes replicas missing the same key wait for one fetch. Advisory
 * locks use the two-key form, whose key space is apart from the one-key locks taken around
 * migrations and batch recording.
 */
const ANSWER_LOCK_SPACE = 719_042;

export interface StoredAnswer {
  fetchedAt: number;
  asOf: number | null;
  asOfText: string | null;
  methodologyVersion: string | null;
  size: number;
  value: string;
}

const ANSWER_COLUMNS = sql.raw('fetched_at, as_of, as_of_text, methodology_version, size, value');

function answerOf(row: Record<string, unknown> | undefined): StoredAnswer | null {
  if (!row) return null;
  return {
    fetchedAt: Number(row.fetched_at),
    asOf: row.as_of === null ? null : Number(row.as_of),
    asOfText: (row.as_of_text as string | null) ?? null,
    methodologyVersion: (row.methodology_version as string | null) ?? null,
    size: Number(row.size),
    value: String(row.value),
  };
}

export async function readAnswer(
  client: pg.Pool | pg.PoolClient,
  key: string,
): Promise<StoredAnswer | null> {
  const rows = await queryOn(
    client,
    sql`select ${ANSWER_COLUMNS} from upstream_answers where key = ${key}`,
  );
  return answerOf(rows[0]);
}

export async function writeAnswer(
  client: pg.Pool | pg.PoolClient,
  key: string,
  answer: StoredAnswer,
): Promise<void> {
  // A slower replica never overwrites a newer answer with an older one.
  await queryOn(
    client,
    sql`insert into upstream_answers (key, ${ANSWER_COLUMNS})
     values (${key}, ${answer.fetchedAt}, ${answer.asOf}, ${answer.asOfText},
       ${answer.methodologyVersion}, ${answer.size}, ${answer.value})
     on conflict (key) do update set fetched_at = excluded.fetched_at, as_of = excluded.as_of,
       as_of_text = excluded.as_of_text, methodology_version = excluded.methodology_version,
       size = excluded.size, value = excluded.value
     where upstream_answers.fetched_at <= excluded.fetched_at`,
  );
}

/** PostgreSQL's lock_not_available: the lock wait ran out (lock_timeout). */
const LOCK_WAIT_RAN_OUT = '55P03';

/**
 * Runs `work` on one pooled connection holding the key's advisory lock: replicas missing the same
 * key at once queue here, and each finds what the one before it fetched. The lock is a session
 * lock, so `work` can commit transactions of its own on the same connection (the ledger's
 * booking) while keeping it: a miss needs one pooled connection, never a second. It goes with
 * the connection, so a replica that dies mid-fetch frees it at once.
 */
export async function withAnswerLock<T>(
  pool: pg.Pool,
  key: string,
  waitMs: number,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let reusable = true;
  let locked = false;
  try {
    try {
      await queryOn(client, sql`begin`);
      // The server ends the wait (lock_timeout, this transaction only): a wait that runs out
      // leaves no lock granted later behind it, unlike a client-side timeout.
      const timeout = Math.max(1, Math.ceil(waitMs));
      await queryOn(client, sql`set local lock_timeout = ${sql.raw(String(timeout))}`);
      await queryOn(client, sql`select pg_advisory_lock(${ANSWER_LOCK_SPACE}, hashtext(${key}))`, {
        // Only a backstop for a server that stopped answering.
        query_timeout: waitMs + 5_000,
      } as Partial<pg.QueryConfig>);
      locked = true;
      // A session lock outlives the transaction that took it.
      await queryOn(client, sql`commit`);
    } catch (error) {
      // Any other failure may leave a lock granted later or a transaction open: drop the connection.
      if (locked || (error as { code?: unknown }).code !== LOCK_WAIT_RAN_OUT) reusable = false;
      else {
        await queryOn(client, sql`rollback`).catch(() => {
          reusable = false;
        });
      }
      throw error;
    }
    return await work(client);
  } finally {
    if (locked && reusable) {
      const rows = await queryOn(
        client,
        sql`select pg_advisory_unlock(${ANSWER_LOCK_SPACE}, hashtext(${key})) as released`,
      ).catch(() => [] as Array<Record<string, unknown>>);
      // A connection still holding the lock must never go back to the pool.
      if (rows[0]?.released !== true) reusable = false;
    }
    client.release(reusable ? undefined : new Error('answer lock connection dropped'));
  }
}
