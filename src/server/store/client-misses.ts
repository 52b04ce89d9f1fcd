import { sql } from 'drizzle-orm';
import { rowsOf, type Database } from './connection.js';

/*
 * Cache misses per client, counted for every replica at once (table client_misses in
 * replicas-schema.ts). The advisory lock's two-key form keeps its key space apart from the
 * one-key locks taken around migrations and batch recording.
 */
const CLIENT_LOCK_SPACE = 719_043;

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
