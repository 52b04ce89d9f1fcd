import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { rowsOf, type Database } from './connection.js';

/*
 * The SQL of replicas coordinating through one PostgreSQL (issue 9); tables in cluster-schema.ts.
 * Advisory locks use the two-key form, whose key space is apart from the one-key locks taken
 * around migrations and batch recording.
 */
const ANSWER_LOCK_SPACE = 719_042;
const CLIENT_LOCK_SPACE = 719_043;
export const NOTIFY_CHANNEL = 'grd_cluster';
const LEASE = 'jobs';

// --- the quota ledger ---

/** The miss's own connection when it holds one, else one from the pool for this call only. */
type Connections = pg.Pool | pg.PoolClient;

async function onOneConnection<T>(
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
    await client.query('begin');
    try {
      await client.query(
        `insert into quota_ledger (id, state) values (1, '{}'::jsonb) on conflict do nothing`,
      );
      const { rows } = await client.query('select state from quota_ledger where id = 1 for update');
      const { state, result } = change((rows[0] as { state?: unknown } | undefined)?.state ?? null);
      await client.query('update quota_ledger set state = $1::jsonb where id = 1', [
        JSON.stringify(state),
      ]);
      await client.query('commit');
      return result;
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    }
  });
}

export async function readLedger(pool: pg.Pool): Promise<unknown> {
  const { rows } = await pool.query('select state from quota_ledger where id = 1');
  return (rows[0] as { state?: unknown } | undefined)?.state ?? null;
}

// --- shared upstream answers ---

export interface StoredAnswer {
  fetchedAt: number;
  asOf: number | null;
  asOfText: string | null;
  methodologyVersion: string | null;
  size: number;
  value: string;
}

const ANSWER_COLUMNS = 'fetched_at, as_of, as_of_text, methodology_version, size, value';

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
  const result = await client.query(
    `select ${ANSWER_COLUMNS} from upstream_answers where key = $1`,
    [key],
  );
  return answerOf(result.rows[0] as Record<string, unknown> | undefined);
}

export async function writeAnswer(
  client: pg.Pool | pg.PoolClient,
  key: string,
  answer: StoredAnswer,
): Promise<void> {
  // A slower replica never overwrites a newer answer with an older one.
  await client.query(
    `insert into upstream_answers (key, ${ANSWER_COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7)
     on conflict (key) do update set fetched_at = excluded.fetched_at, as_of = excluded.as_of,
       as_of_text = excluded.as_of_text, methodology_version = excluded.methodology_version,
       size = excluded.size, value = excluded.value
     where upstream_answers.fetched_at <= excluded.fetched_at`,
    [
      key,
      answer.fetchedAt,
      answer.asOf,
      answer.asOfText,
      answer.methodologyVersion,
      answer.size,
      answer.value,
    ],
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
  const lock = [ANSWER_LOCK_SPACE, key];
  const client = await pool.connect();
  let reusable = true;
  let locked = false;
  try {
    try {
      await client.query('begin');
      // The server ends the wait (lock_timeout, this transaction only): a wait that runs out
      // leaves no lock granted later behind it, unlike a client-side timeout.
      await client.query(`set local lock_timeout = ${Math.max(1, Math.ceil(waitMs))}`);
      await client.query({
        text: 'select pg_advisory_lock($1, hashtext($2))',
        values: lock,
        // Only a backstop for a server that stopped answering.
        query_timeout: waitMs + 5_000,
      } as pg.QueryConfig);
      locked = true;
      // A session lock outlives the transaction that took it.
      await client.query('commit');
    } catch (error) {
      // Any other failure may leave a lock granted later or a transaction open: drop the connection.
      if (locked || (error as { code?: unknown }).code !== LOCK_WAIT_RAN_OUT) reusable = false;
      else {
        await client.query('rollback').catch(() => {
          reusable = false;
        });
      }
      throw error;
    }
    return await work(client);
  } finally {
    if (locked && reusable) {
      const { rows } = await client
        .query('select pg_advisory_unlock($1, hashtext($2)) as released', lock)
        .catch(() => ({ rows: [] as Array<{ released?: boolean }> }));
      // A connection still holding the lock must never go back to the pool.
      if ((rows[0] as { released?: boolean } | undefined)?.released !== true) reusable = false;
    }
    client.release(reusable ? undefined : new Error('answer lock connection dropped'));
  }
}

// --- per-client cache misses ---

/**
 * `decide` sees the client's misses since `since` (oldest first) and throws to refuse; on
 * success the miss is recorded and its id returned (to take it back when nothing was sent).
 */
export async function recordMiss(
  db: Database,
  client: string,
  at: number,
  since: number,
  decide: (recent: number[]) => void,
): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${CLIENT_LOCK_SPACE}, hashtext(${client}))`);
    const rows = rowsOf(
      await tx.execute(
        sql`select at from client_misses where client = ${client} and at > ${since} order by at`,
      ),
    );
    decide(rows.map((row) => Number(row.at)));
    const [row] = rowsOf(
      await tx.execute(
        sql`insert into client_misses (client, at) values (${client}, ${at}) returning id`,
      ),
    );
    return Number(row?.id);
  });
}

export async function removeMiss(db: Database, id: number): Promise<void> {
  await db.execute(sql`delete from client_misses where id = ${id}`);
}

// --- membership and the leader lease ---

export async function heartbeat(db: Database, holder: string, name: string): Promise<void> {
  await db.execute(
    sql`insert into replicas (holder, name, last_seen) values (${holder}, ${name}, now())
        on conflict (holder) do update set last_seen = now()`,
  );
}

export async function leaveCluster(db: Database, holder: string): Promise<void> {
  await db.execute(sql`delete from replicas where holder = ${holder}`);
  await db.execute(
    sql`update leader_lease set expires_at = now() where name = ${LEASE} and holder = ${holder}`,
  );
}

export async function countReplicas(db: Database, withinSeconds: number): Promise<number> {
  const [row] = rowsOf(
    await db.execute(
      sql`select count(*)::int as n from replicas
          where last_seen > now() - make_interval(secs => ${withinSeconds})`,
    ),
  );
  return Number(row?.n ?? 0);
}

export interface Lease {
  holder: string;
  name: string | null;
  fence: number;
  mine: boolean;
}

/**
 * Takes or renews the lease: it changes hands only when it has run out, and each change raises
 * the fence. Returns who holds it now.
 */
export async function claimLease(db: Database, holder: string, ttlSeconds: number): Promise<Lease> {
  await db.execute(
    sql`insert into leader_lease (name, holder, fence, expires_at)
        values (${LEASE}, ${holder}, 1, now() + make_interval(secs => ${ttlSeconds}))
        on conflict (name) do update set
          holder = excluded.holder,
          fence = case when leader_lease.holder = excluded.holder
                        and leader_lease.expires_at > now()
                   then leader_lease.fence else leader_lease.fence + 1 end,
          expires_at = excluded.expires_at
        where leader_lease.holder = excluded.holder or leader_lease.expires_at <= now()`,
  );
  const [row] = rowsOf(
    await db.execute(
      sql`select l.holder, l.fence, r.name from leader_lease l
          left join replicas r on r.holder = l.holder where l.name = ${LEASE}`,
    ),
  );
  const current = String(row?.holder ?? '');
  return {
    holder: current,
    name: (row?.name as string | null) ?? null,
    fence: Number(row?.fence ?? 0),
    mine: current === holder,
  };
}

/** The SQL condition "this holder still leads with this fence" (fences outbox claims). */
export function holdsLease(holder: string, fence: number) {
  return sql`exists (select 1 from leader_lease where name = ${LEASE} and holder = ${holder}
             and fence = ${fence} and expires_at > now())`;
}

/** Forgets what no replica needs any more: old misses, answers, silent replicas. */
export async function pruneShared(db: Database, now: number, answersBefore: number): Promise<void> {
  await db.execute(sql`delete from client_misses where at < ${now - 3_600_000}`);
  await db.execute(sql`delete from upstream_answers where fetched_at < ${answersBefore}`);
  await db.execute(sql`delete from replicas where last_seen < now() - interval '1 day'`);
  await db.execute(sql`delete from sessions where expires_at < ${now}`);
}

export async function notify(db: Database, payload: string): Promise<void> {
  await db.execute(sql`select pg_notify(${NOTIFY_CHANNEL}, ${payload})`);
}

// --- sessions (DASHBOARD_TOKEN sign-ins), by the hash of their id ---

export async function insertSession(
  db: Database,
  idHash: string,
  expiresAt: number,
): Promise<void> {
  await db.execute(
    sql`insert into sessions (id_hash, expires_at) values (${idHash}, ${expiresAt})
        on conflict (id_hash) do nothing`,
  );
}

export async function sessionExpiry(db: Database, idHash: string): Promise<number | null> {
  const [row] = rowsOf(
    await db.execute(sql`select expires_at from sessions where id_hash = ${idHash}`),
  );
  return row ? Number(row.expires_at) : null;
}

export async function deleteSession(db: Database, idHash: string): Promise<void> {
  await db.execute(sql`delete from sessions where id_hash = ${idHash}`);
}
