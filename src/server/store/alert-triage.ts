import {
  and,
  count,
  desc,
  eq,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  max,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import type { Disposition, InboxState } from '../../shared/alert-triage-api.js';
import { alerts, watchlists } from './alerts-schema.js';
import type { Database } from './connection.js';
import { alertAckHistory, alertAcks, alertReads, readerMarks } from './triage-schema.js';
import { alertColumns, type AlertRow } from './alerts.js';

/**
 * Whose read state a question is about: a person (`oidc:<sub>`, the proxy's user), or null for
 * token holders, who share the alert's own `read_at` (the read state before issue 21).
 */
export type Reader = string | null;

export type AckRow = typeof alertAcks.$inferSelect;

export interface InboxQuery {
  watchlistIds: number[];
  reader: Reader;
  state: InboxState | null;
  iso: string | null;
  disposition: Disposition | null;
  /** Alerts with an id below this (paging, newest first). */
  before: number | null;
  limit: number;
}

export type InboxRow = AlertRow & { watchlistName: string; ack: AckRow | null };

/** When `reader` read the alert (null: unread), as one SQL expression over the joined rows. */
function readAtOf(reader: Reader): SQL<Date | null> {
  if (reader === null) return sql<Date | null>`${alerts.readAt}`;
  return sql<Date | null>`coalesce(${alertReads.readAt},
    case when ${alerts.id} <= ${readerMarks.readThrough} then ${readerMarks.markedAt} end)`;
}

/** Joins a person's read marks to a select over `alerts` (nothing for token holders). */
function withReads<T extends PgSelect>(query: T, reader: Reader): T {
  if (reader === null) return query;
  // The joins add no selected field, so the query's result type is unchanged.
  return query
    .leftJoin(readerMarks, eq(readerMarks.reader, reader))
    .leftJoin(
      alertReads,
      and(eq(alertReads.reader, reader), eq(alertReads.alertId, alerts.id)),
    ) as unknown as T;
}

function stateCondition(state: InboxState | null, reader: Reader): SQL | undefined {
  switch (state) {
    case 'unread':
      return sql`${readAtOf(reader)} is null`;
    case 'unacknowledged':
      return isNull(alertAcks.alertId);
    case 'acknowledged':
      return isNotNull(alertAcks.alertId);
    default:
      return undefined;
  }
}

/** One page of the inbox (newest first, one row more than `limit` to tell a next page). */
export async function selectInbox(db: Database, query: InboxQuery): Promise<InboxRow[]> {
  if (query.watchlistIds.length === 0) return [];
  const base = db
    .select({
      ...alertColumns,
      readAt: readAtOf(query.reader).mapWith(alerts.readAt),
      watchlistName: watchlists.name,
      ack: alertAcks,
    })
    .from(alerts)
    .innerJoin(watchlists, eq(watchlists.id, alerts.watchlistId))
    .leftJoin(alertAcks, eq(alertAcks.alertId, alerts.id))
    .$dynamic();
  const rows = await withReads(base, query.reader)
    .where(
      and(
        inArray(alerts.watchlistId, query.watchlistIds),
        stateCondition(query.state, query.reader),
        query.disposition !== null ? eq(alertAcks.disposition, query.disposition) : undefined,
        query.iso !== null ? eq(alerts.iso, query.iso) : undefined,
        query.before !== null ? lt(alerts.id, query.before) : undefined,
      ),
    )
    .orderBy(desc(alerts.id))
    .limit(query.limit + 1);
  return rows.map((row) => ({ ...row, ack: row.ack ?? null }));
}

/** The alerts of `watchlistIds` that `reader` has not read. */
export async function countUnreadFor(
  db: Database,
  watchlistIds: number[],
  reader: Reader,
): Promise<number> {
  if (watchlistIds.length === 0) return 0;
  const base = db.select({ n: count() }).from(alerts).$dynamic();
  const [row] = await withReads(base, reader).where(
    and(inArray(alerts.watchlistId, watchlistIds), sql`${readAtOf(reader)} is null`),
  );
  return Number(row?.n ?? 0);
}

/** The alerts `reader` has not read, per list of `watchlistIds` (lists with none are absent). */
export async function countUnreadByList(
  db: Database,
  watchlistIds: number[],
  reader: Reader,
): Promise<Map<number, number>> {
  if (watchlistIds.length === 0) return new Map();
  const base = db.select({ id: alerts.watchlistId, n: count() }).from(alerts).$dynamic();
  const rows = await withReads(base, reader)
    .where(and(inArray(alerts.watchlistId, watchlistIds), sql`${readAtOf(reader)} is null`))
    .groupBy(alerts.watchlistId);
  return new Map(rows.map((r) => [r.id, Number(r.n)]));
}

/**
 * Marks alerts of `watchlistIds` read for `reader` (those given, or all when `ids` is null);
 * returns how many were unread. A person's "all" moves their mark to the newest alert: one row,
 * however many alerts there are.
 */
export async function markReadFor(
  db: Database,
  watchlistIds: number[],
  reader: string,
  ids: number[] | null,
  now: Date,
): Promise<number> {
  if (watchlistIds.length === 0) return 0;
  return db.transaction(async (tx) => {
    const unread = async (): Promise<Array<{ id: number }>> =>
      withReads(tx.select({ id: alerts.id }).from(alerts).$dynamic(), reader).where(
        and(
          inArray(alerts.watchlistId, watchlistIds),
          ids === null ? undefined : inArray(alerts.id, ids),
          sql`${readAtOf(reader)} is null`,
        ),
      );
    if (ids !== null) {
      const targets = await unread();
      if (targets.length === 0) return 0;
      await tx
        .insert(alertReads)
        .values(targets.map((t) => ({ alertId: t.id, reader, readAt: now })))
        .onConflictDoNothing();
      return targets.length;
    }
    const [{ n } = { n: 0 }] = await withReads(
      tx.select({ n: count() }).from(alerts).$dynamic(),
      reader,
    ).where(and(inArray(alerts.watchlistId, watchlistIds), sql`${readAtOf(reader)} is null`));
    const [newest] = await tx
      .select({ id: max(alerts.id) })
      .from(alerts)
      .where(inArray(alerts.watchlistId, watchlistIds));
    const through = newest?.id ?? null;
    if (through === null || Number(n) === 0) return 0;
    // The mark only moves forward: an older "all" arriving late never unreads anything.
    await tx
      .insert(readerMarks)
      .values({ reader, readThrough: through, markedAt: now })
      .onConflictDoUpdate({
        target: readerMarks.reader,
        set: { readThrough: through, markedAt: now },
        setWhere: lt(readerMarks.readThrough, through),
      });
    // Single marks the mark now covers are dropped: the table holds only what lies above it.
    await tx
      .delete(alertReads)
      .where(and(eq(alertReads.reader, reader), lte(alertReads.alertId, through)));
    return Number(n);
  });
}

/** The alert's list (to check the asker may see it), or null when there is no such alert. */
export async function selectAlertList(db: Database, alertId: number): Promise<number | null> {
  const [row] = await db
    .select({ watchlistId: alerts.watchlistId })
    .from(alerts)
    .where(eq(alerts.id, alertId));
  return row?.watchlistId ?? null;
}

export interface AckWrite {
  alertId: number;
  disposition: Disposition;
  note: string | null;
  byName: string;
  bySubject: string | null;
  at: Date;
  /** The revision this one replaces (null: the first acknowledgement). */
  replaces: number | null;
  maxRevisions: number;
}

export type AckOutcome =
  | { ok: true; ack: AckRow }
  | { ok: false; reason: 'conflict'; current: AckRow | null }
  | { ok: false; reason: 'too_many'; current: AckRow };

/**
 * Acknowledges an alert for the team, or changes its acknowledgement, in one transaction that
 * also appends it to the history. Made against the revision the person saw: a first one only
 * while there is none, a change only while `replaces` is still the current revision.
 */
export async function writeAck(db: Database, write: AckWrite): Promise<AckOutcome> {
  return db.transaction(async (tx) => {
    const values = {
      alertId: write.alertId,
      disposition: write.disposition,
      note: write.note,
      byName: write.byName,
      bySubject: write.bySubject,
      at: write.at,
    };
    const current = async (): Promise<AckRow | null> =>
      (await tx.select().from(alertAcks).where(eq(alertAcks.alertId, write.alertId)))[0] ?? null;
    let row: AckRow | undefined;
    if (write.replaces === null) {
      // Compare-and-set on the key: of two first acknowledgements at once, one is stored.
      [row] = await tx
        .insert(alertAcks)
        .values({ ...values, revision: 1 })
        .onConflictDoNothing()
        .returning();
    } else {
      if (write.replaces + 1 > write.maxRevisions) {
        const now = await current();
        if (now?.revision === write.replaces)
          return { ok: false, reason: 'too_many', current: now };
      }
      [row] = await tx
        .update(alertAcks)
        .set({ ...values, revision: write.replaces + 1 })
        .where(and(eq(alertAcks.alertId, write.alertId), eq(alertAcks.revision, write.replaces)))
        .returning();
    }
    if (!row) return { ok: false, reason: 'conflict', current: await current() };
    await tx.insert(alertAckHistory).values({ ...values, revision: row.revision });
    return { ok: true, ack: row };
  });
}

export type AckHistoryRow = typeof alertAckHistory.$inferSelect;

/** Every acknowledgement of an alert, newest first (at most ACKS_PER_ALERT_MAX exist). */
export async function selectAckHistory(db: Database, alertId: number): Promise<AckHistoryRow[]> {
  return db
    .select()
    .from(alertAckHistory)
    .where(eq(alertAckHistory.alertId, alertId))
    .orderBy(desc(alertAckHistory.revision));
}
