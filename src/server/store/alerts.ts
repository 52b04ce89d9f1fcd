import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  inArray,
  isNull,
  lt,
  lte,
  notExists,
  sql,
} from 'drizzle-orm';
import { alertEvaluations, alerts, deliveries, watchlists } from './alerts-schema.js';
import type { Database } from './connection.js';
import { batches, events } from './schema.js';

export type AlertRow = typeof alerts.$inferSelect;
export type NewAlert = typeof alerts.$inferInsert;
export type NewDelivery = typeof deliveries.$inferInsert;
export type BatchRef = { id: number; asOf: Date };

/** Batches with country rows whose alerts were never evaluated, oldest first. */
export async function selectUnevaluatedBatches(db: Database, limit: number): Promise<BatchRef[]> {
  return db
    .select({ id: batches.id, asOf: batches.asOf })
    .from(batches)
    .where(
      and(
        gt(batches.countryCount, 0),
        notExists(
          db
            .select({ one: sql`1` })
            .from(alertEvaluations)
            .where(eq(alertEvaluations.batchId, batches.id)),
        ),
      ),
    )
    .orderBy(asc(batches.asOf))
    .limit(limit);
}

/** The batch with country rows just before `asOf`. */
export async function selectPreviousBatch(db: Database, asOf: Date): Promise<BatchRef | null> {
  const [row] = await db
    .select({ id: batches.id, asOf: batches.asOf })
    .from(batches)
    .where(and(gt(batches.countryCount, 0), lt(batches.asOf, asOf)))
    .orderBy(desc(batches.asOf))
    .limit(1);
  return row ?? null;
}

export interface BreakingEvent {
  iso: string;
  headline: string;
  source: string | null;
  ts: Date;
}

/** Archived breaking events of `isos` in (from, to]. */
export async function selectBreakingEvents(
  db: Database,
  isos: string[],
  from: Date | null,
  to: Date,
): Promise<BreakingEvent[]> {
  if (isos.length === 0) return [];
  return db
    .select({ iso: events.iso, headline: events.headline, source: events.source, ts: events.ts })
    .from(events)
    .where(
      and(
        inArray(events.iso, isos),
        eq(events.breaking, true),
        from ? gt(events.ts, from) : undefined,
        lte(events.ts, to),
      ),
    )
    .orderBy(desc(events.ts))
    .limit(500);
}

/** Every batch with country rows, oldest first. */
export async function selectBatchRefs(db: Database): Promise<BatchRef[]> {
  return db
    .select({ id: batches.id, asOf: batches.asOf })
    .from(batches)
    .where(gt(batches.countryCount, 0))
    .orderBy(asc(batches.asOf));
}

/** Alerts outside an evaluation (a backfill); duplicates of the unique key are dropped. */
export async function insertAlerts(db: Database, rows: NewAlert[]): Promise<number> {
  if (rows.length === 0) return 0;
  const inserted = await db
    .insert(alerts)
    .values(rows)
    .onConflictDoNothing()
    .returning({ id: alerts.id });
  return inserted.length;
}

/**
 * Writes one batch's evaluation in one transaction: the evaluation mark (whoever marks first
 * evaluates; a second process or a restart finds it taken and writes nothing), the alerts (the
 * unique (list, rule, country, batch) key drops any duplicate), and the deliveries built from
 * the alerts actually inserted. Returns the inserted alerts, or null when already evaluated.
 */
export async function writeEvaluation(
  db: Database,
  batchId: number,
  candidates: NewAlert[],
  deliveriesFor: (inserted: AlertRow[]) => NewDelivery[],
): Promise<AlertRow[] | null> {
  return db.transaction(async (tx) => {
    const mark = await tx
      .insert(alertEvaluations)
      .values({ batchId, alerts: 0 })
      .onConflictDoNothing()
      .returning({ batchId: alertEvaluations.batchId });
    if (mark.length === 0) return null;
    const inserted =
      candidates.length === 0
        ? []
        : await tx.insert(alerts).values(candidates).onConflictDoNothing().returning();
    if (inserted.length > 0) {
      await tx
        .update(alertEvaluations)
        .set({ alerts: inserted.length })
        .where(eq(alertEvaluations.batchId, batchId));
    }
    const outgoing = deliveriesFor(inserted);
    if (outgoing.length > 0) await tx.insert(deliveries).values(outgoing).onConflictDoNothing();
    return inserted;
  });
}

export interface AlertQuery {
  watchlistIds: number[];
  unreadOnly: boolean;
  iso: string | null;
  /** Alerts with an id below this (paging, newest first). */
  before: number | null;
  limit: number;
}

export type AlertWithList = AlertRow & { watchlistName: string };

export async function selectAlerts(db: Database, query: AlertQuery): Promise<AlertWithList[]> {
  if (query.watchlistIds.length === 0) return [];
  return db
    .select({
      id: alerts.id,
      watchlistId: alerts.watchlistId,
      ruleKey: alerts.ruleKey,
      kind: alerts.kind,
      iso: alerts.iso,
      country: alerts.country,
      batchAsOf: alerts.batchAsOf,
      message: alerts.message,
      before: alerts.before,
      after: alerts.after,
      createdAt: alerts.createdAt,
      readAt: alerts.readAt,
      watchlistName: watchlists.name,
    })
    .from(alerts)
    .innerJoin(watchlists, eq(watchlists.id, alerts.watchlistId))
    .where(
      and(
        inArray(alerts.watchlistId, query.watchlistIds),
        query.unreadOnly ? isNull(alerts.readAt) : undefined,
        query.iso !== null ? eq(alerts.iso, query.iso) : undefined,
        query.before !== null ? lt(alerts.id, query.before) : undefined,
      ),
    )
    .orderBy(desc(alerts.id))
    .limit(query.limit + 1);
}

export async function countUnread(db: Database, watchlistIds: number[]): Promise<number> {
  if (watchlistIds.length === 0) return 0;
  const [row] = await db
    .select({ n: count() })
    .from(alerts)
    .where(and(inArray(alerts.watchlistId, watchlistIds), isNull(alerts.readAt)));
  return Number(row?.n ?? 0);
}

/** Marks alerts read (those given, or all of the lists when `ids` is null); returns how many. */
export async function markAlertsRead(
  db: Database,
  watchlistIds: number[],
  ids: number[] | null,
): Promise<number> {
  if (watchlistIds.length === 0) return 0;
  const updated = await db
    .update(alerts)
    .set({ readAt: sql`now()` })
    .where(
      and(
        inArray(alerts.watchlistId, watchlistIds),
        ids === null ? undefined : inArray(alerts.id, ids),
        isNull(alerts.readAt),
      ),
    )
    .returning({ id: alerts.id });
  return updated.length;
}
