import { sql } from 'drizzle-orm';
import { rowsOf, type Database } from './connection.js';

/* What the feeds read beside the batches (issue 34): team watchlists and their alerts. */

/** A team list's countries (personal lists are their owner's: no feed reads them), or null. */
export async function teamListCountries(
  db: Database,
  id: number,
): Promise<{ name: string; countries: string[] } | null> {
  const [row] = rowsOf(
    await db.execute(
      sql`select name, countries from watchlists where id = ${id} and owner is null`,
    ),
  );
  if (!row) return null;
  const countries = Array.isArray(row.countries) ? row.countries.map(String) : [];
  return { name: String(row.name), countries };
}

export interface FeedAlertRow {
  id: number;
  watchlist: string;
  kind: string;
  iso: string;
  country: string;
  batchAsOf: Date;
  message: string;
  createdAt: Date;
}

/**
 * Team lists' alerts whose batch is in [from, to), oldest first, at most `limit` (the caller asks
 * for one more than it serves, to say the period holds more).
 */
export async function teamAlertsBetween(
  db: Database,
  range: { from: Date; to: Date; limit: number },
): Promise<FeedAlertRow[]> {
  return rowsOf(
    await db.execute(
      sql`select a.id, w.name as watchlist, a.kind, a.iso, a.country, a.batch_as_of, a.message,
                 a.created_at
          from alerts a join watchlists w on w.id = a.watchlist_id
          where w.owner is null and a.batch_as_of >= ${range.from.toISOString()}
            and a.batch_as_of < ${range.to.toISOString()}
          order by a.batch_as_of, a.id limit ${range.limit}`,
    ),
  ).map((row) => ({
    id: Number(row.id),
    watchlist: String(row.watchlist),
    kind: String(row.kind),
    iso: String(row.iso),
    country: String(row.country),
    batchAsOf: dateOf(row.batch_as_of),
    message: String(row.message),
    createdAt: dateOf(row.created_at),
  }));
}

/** The drivers answer a timestamptz as a Date (node-postgres, PGlite); text is read as ISO. */
function dateOf(value: unknown): Date {
  return value instanceof Date ? value : new Date(String(value));
}
