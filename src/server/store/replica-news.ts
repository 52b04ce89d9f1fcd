import { sql } from 'drizzle-orm';
import type { Database } from './connection.js';

/** The LISTEN/NOTIFY channel replicas tell each other news on. */
export const NOTIFY_CHANNEL = 'grd_cluster';

/** Tells every replica listening on NOTIFY_CHANNEL (cache and session news). */
export async function notify(db: Database, payload: string): Promise<void> {
  await db.execute(sql`select pg_notify(${NOTIFY_CHANNEL}, ${payload})`);
}
