import { sql } from 'drizzle-orm';
import { rowsOf, type Database } from './connection.js';

/* Sign-in sessions (DASHBOARD_TOKEN), by the hash of their id (table sessions in replicas-schema.ts). */

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
