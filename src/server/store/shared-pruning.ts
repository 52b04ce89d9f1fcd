import { sql } from 'drizzle-orm';
import type { Database } from './connection.js';

/** Forgets what no replica needs any more: old misses, answers, silent replicas. */
export async function pruneShared(db: Database, now: number, answersBefore: number): Promise<void> {
  await db.execute(sql`delete from client_misses where at < ${now - 3_600_000}`);
  await db.execute(sql`delete from upstream_answers where fetched_at < ${answersBefore}`);
  await db.execute(sql`delete from replicas where last_seen < now() - interval '1 day'`);
  await db.execute(sql`delete from sessions where expires_at < ${now}`);
}
