import { and, asc, count, eq, gt, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { AlertRule, WebhookFormat } from '../../shared/alerts-api.js';
import type { Language } from '../../shared/i18n/languages.js';
import { watchlists } from './alerts-schema.js';
import type { Database } from './connection.js';

export type WatchlistRow = typeof watchlists.$inferSelect;

export interface WatchlistValues {
  name: string;
  countries: string[];
  rules: AlertRule[];
  owner: string | null;
  webhookUrl: string | null;
  webhookFormat: WebhookFormat;
  /** Its e-mails' and webhook texts' language (issue 34); left out: the column's `en`. */
  language?: Language;
  /** Set when a webhook URL is first given (kept across later edits of the URL). */
  webhookSecret: string | null;
  email: string | null;
}

/** Who is asking: team lists are everyone's; a user's own lists are theirs alone. */
function visibleTo(user: string | null) {
  return user === null
    ? isNull(watchlists.owner)
    : or(isNull(watchlists.owner), eq(watchlists.owner, user));
}

export async function selectWatchlists(db: Database, user: string | null): Promise<WatchlistRow[]> {
  return db.select().from(watchlists).where(visibleTo(user)).orderBy(asc(watchlists.id));
}

export async function selectAllWatchlists(db: Database): Promise<WatchlistRow[]> {
  return db.select().from(watchlists).orderBy(asc(watchlists.id));
}

/** Up to `limit` lists with an id above `afterId`, by id: evaluation reads lists page by page. */
export async function selectWatchlistPage(
  db: Database,
  afterId: number,
  limit: number,
): Promise<WatchlistRow[]> {
  return db
    .select()
    .from(watchlists)
    .where(gt(watchlists.id, afterId))
    .orderBy(asc(watchlists.id))
    .limit(limit);
}

export async function selectWatchlistById(db: Database, id: number): Promise<WatchlistRow | null> {
  const [row] = await db.select().from(watchlists).where(eq(watchlists.id, id));
  return row ?? null;
}

export async function selectWatchlist(
  db: Database,
  id: number,
  user: string | null,
): Promise<WatchlistRow | null> {
  const [row] = await db
    .select()
    .from(watchlists)
    .where(and(eq(watchlists.id, id), visibleTo(user)));
  return row ?? null;
}

/** The demo's sample list; null when one exists (another process made it first). */
export async function insertDemoWatchlist(
  db: Database,
  values: WatchlistValues,
): Promise<number | null> {
  const [row] = await db
    .insert(watchlists)
    .values({ ...values, demo: 'sample' })
    .onConflictDoNothing()
    .returning({ id: watchlists.id });
  return row?.id ?? null;
}

/** The advisory lock (by `hashtext`) that serialises creating lists of one owner. */
export function ownerLockName(owner: string | null): string {
  return owner === null ? 'watchlists:team' : `watchlists:user:${owner}`;
}

/**
 * Inserts a list unless its owner (a person, or the team when null) already has `limit` lists:
 * then null. Counting and inserting hold a per-owner transaction lock, so two concurrent
 * creations cannot both take the last place.
 */
export async function insertWatchlist(
  db: Database,
  values: WatchlistValues,
  limit: number,
): Promise<WatchlistRow | null> {
  return db.transaction(async (tx) => {
    const owner = values.owner;
    // One creation per owner at a time: count and insert cannot interleave with another's.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${ownerLockName(owner)}))`);
    const [held] = await tx
      .select({ n: count() })
      .from(watchlists)
      .where(owner === null ? isNull(watchlists.owner) : eq(watchlists.owner, owner));
    if (Number(held?.n ?? 0) >= limit) return null;
    const [row] = await tx.insert(watchlists).values(values).returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  });
}

/**
 * Replaces a list only if it is still at `version` (the ETag the editor saw): a concurrent edit
 * makes this return null, never overwrite. Saving a list also lifts a webhook pause.
 */
export async function updateWatchlist(
  db: Database,
  id: number,
  version: number,
  values: WatchlistValues,
  user: string | null,
): Promise<WatchlistRow | null> {
  return saveWatchlistAt(db, id, version, values, visibleTo(user));
}

/**
 * Writes `values` to list `id` only if it is still at `version` (and `alsoWhere` holds): null
 * when a concurrent edit moved it on, never an overwrite. Saving lifts a webhook pause and moves
 * the version (the list's ETag) on.
 */
export async function saveWatchlistAt(
  db: Database,
  id: number,
  version: number,
  values: Partial<WatchlistValues>,
  alsoWhere?: SQL,
): Promise<WatchlistRow | null> {
  const [row] = await db
    .update(watchlists)
    .set({
      ...values,
      webhookPausedAt: null,
      webhookPausedReason: null,
      version: sql`${watchlists.version} + 1`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(watchlists.id, id), eq(watchlists.version, version), alsoWhere))
    .returning();
  return row ?? null;
}

export async function deleteWatchlist(
  db: Database,
  id: number,
  version: number,
  user: string | null,
): Promise<boolean> {
  const deleted = await db
    .delete(watchlists)
    .where(and(eq(watchlists.id, id), eq(watchlists.version, version), visibleTo(user)))
    .returning({ id: watchlists.id });
  return deleted.length > 0;
}

export async function pauseWebhook(
  db: Database,
  id: number,
  at: Date,
  reason: string,
): Promise<void> {
  await db
    .update(watchlists)
    .set({ webhookPausedAt: at, webhookPausedReason: reason })
    .where(and(eq(watchlists.id, id), isNull(watchlists.webhookPausedAt)));
}

export async function selectDemoWatchlist(db: Database): Promise<WatchlistRow | null> {
  const [row] = await db.select().from(watchlists).where(eq(watchlists.demo, 'sample'));
  return row ?? null;
}
