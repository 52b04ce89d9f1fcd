import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  and,
  asc,
  desc,
  eq,
  gt,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import {
  alertEvaluations,
  alertListFailures,
  alerts,
  deliveries,
  watchlists,
} from './alerts-schema.js';
import type { Database } from './connection.js';
import { batches, events } from './schema.js';

export type AlertRow = typeof alerts.$inferSelect;
export type NewAlert = typeof alerts.$inferInsert;
export type NewDelivery = typeof deliveries.$inferInsert;
export type BatchRef = { id: number; asOf: Date };

/** An alert's own columns but its per-reader read mark (the lists and the inbox each add theirs). */
export const alertColumns = {
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
};

/**
 * Up to `limit` batches with country rows for which `pending` holds, oldest first; `pending` may
 * read the batch's row of `evaluations` (an evaluator's own table, left joined on `batchId`).
 */
export async function selectPendingBatches(
  db: Database,
  evaluations: { table: PgTable; batchId: PgColumn },
  pending: SQL | undefined,
  limit: number,
): Promise<BatchRef[]> {
  return db
    .select({ id: batches.id, asOf: batches.asOf })
    .from(batches)
    .leftJoin(evaluations.table, eq(evaluations.batchId, batches.id))
    .where(and(gt(batches.countryCount, 0), pending))
    .orderBy(asc(batches.asOf))
    .limit(limit);
}

/** Batches with country rows whose evaluation is not finished (or not begun), oldest first. */
export async function selectUnevaluatedBatches(db: Database, limit: number): Promise<BatchRef[]> {
  return selectPendingBatches(
    db,
    { table: alertEvaluations, batchId: alertEvaluations.batchId },
    or(isNull(alertEvaluations.batchId), isNotNull(alertEvaluations.pendingAfter)),
    limit,
  );
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

/** Archived breaking events of `isos` after `from`, oldest first, at most `limit` (backtests). */
export async function selectBreakingEventsSince(
  db: Database,
  isos: string[],
  from: Date,
  limit: number,
): Promise<BreakingEvent[]> {
  if (isos.length === 0) return [];
  return db
    .select({ iso: events.iso, headline: events.headline, source: events.source, ts: events.ts })
    .from(events)
    .where(and(inArray(events.iso, isos), eq(events.breaking, true), gt(events.ts, from)))
    .orderBy(asc(events.ts))
    .limit(limit);
}

/** Every batch with country rows, oldest first. */
export async function selectBatchRefs(db: Database): Promise<BatchRef[]> {
  return db
    .select({ id: batches.id, asOf: batches.asOf })
    .from(batches)
    .where(gt(batches.countryCount, 0))
    .orderBy(asc(batches.asOf));
}

// An alert row binds 10 parameters: 50 rows (500) stay far below PostgreSQL's 65,535 a
// statement and below what the drivers can bind at all (13,200 rows overflowed the JavaScript
// stack of both here), whatever the number of lists.
// The embedded store runs each statement on the main thread, and drizzle builds it there too
// (its query builder was about half of each statement's time): a statement of 200 rows held
// the thread for 40-90 ms of CPU at load 20, the largest evaluation's longest stretches (CPU per
// event-loop turn, scripts/bench/cpu-stretches.ts); 50 rows cost a quarter of that for the same
// work per row. Sockets get a turn between statements (issue 29); the chunk's transaction is
// unchanged, so what is written together still is.
export const ALERT_ROWS_PER_INSERT = 50;
// A delivery binds at most 12 too.
const DELIVERIES_PER_INSERT = 50;

/** Alerts in statements of ALERT_ROWS_PER_INSERT; a duplicate of `alerts_once_key` is dropped. */
export async function insertAlertRows(db: Database, rows: NewAlert[]): Promise<AlertRow[]> {
  const inserted: AlertRow[] = [];
  for (let i = 0; i < rows.length; i += ALERT_ROWS_PER_INSERT) {
    if (i > 0) await nextTurn();
    const slice = rows.slice(i, i + ALERT_ROWS_PER_INSERT);
    inserted.push(...(await db.insert(alerts).values(slice).onConflictDoNothing().returning()));
  }
  return inserted;
}

/** Deliveries in statements of DELIVERIES_PER_INSERT; a duplicate message id is dropped. */
export async function insertDeliveryRows(db: Database, rows: NewDelivery[]): Promise<void> {
  for (let i = 0; i < rows.length; i += DELIVERIES_PER_INSERT) {
    if (i > 0) await nextTurn();
    const slice = rows.slice(i, i + DELIVERIES_PER_INSERT);
    await db.insert(deliveries).values(slice).onConflictDoNothing();
  }
}

/** One batch by its row id (with country rows), or null. */
export async function selectBatchRefById(db: Database, id: number): Promise<BatchRef | null> {
  const [row] = await db
    .select({ id: batches.id, asOf: batches.asOf })
    .from(batches)
    .where(and(eq(batches.id, id), gt(batches.countryCount, 0)));
  return row ?? null;
}

/**
 * Alerts and the deliveries of those actually inserted, in one transaction (the held rules of a
 * method change released, issue 31); duplicates of the unique key are dropped, and so never sent.
 */
export async function writeAlertsAndDeliveries(
  db: Database,
  rows: NewAlert[],
  deliveriesFor: (inserted: AlertRow[]) => NewDelivery[],
): Promise<number> {
  if (rows.length === 0) return 0;
  return db.transaction(async (tx) => {
    const inserted = await insertAlertRows(tx, rows);
    await insertDeliveryRows(tx, deliveriesFor(inserted));
    return inserted.length;
  });
}

/** Alerts outside an evaluation (a backfill); duplicates of the unique key are dropped. */
export async function insertAlerts(db: Database, rows: NewAlert[]): Promise<number> {
  return (await insertAlertRows(db, rows)).length;
}

/**
 * Begins (or finds) a batch's evaluation: the id after which lists are still to be evaluated, or
 * null when the evaluation is finished (by this process before a restart, or by another).
 */
export async function beginEvaluation(db: Database, batchId: number): Promise<number | null> {
  await db
    .insert(alertEvaluations)
    .values({ batchId, alerts: 0, pendingAfter: 0 })
    .onConflictDoNothing();
  const [mark] = await db
    .select({ pendingAfter: alertEvaluations.pendingAfter })
    .from(alertEvaluations)
    .where(eq(alertEvaluations.batchId, batchId));
  return mark?.pendingAfter ?? null;
}

/** The alerts one list raised in a chunk, or why it could not be evaluated. */
export type ListEvaluation =
  { watchlistId: number; candidates: NewAlert[] } | { watchlistId: number; failure: string };

export interface EvaluationChunk {
  batchId: number;
  /** The cursor this chunk continues from, and the last list id it covers. */
  after: number;
  through: number;
  /** The chunk holds the batch's last lists: the evaluation is finished with it. */
  last: boolean;
  lists: ListEvaluation[];
}

export interface ChunkWritten {
  inserted: AlertRow[];
  failures: Array<{ watchlistId: number; reason: string }>;
}

/** Why something failed, for a log line or a note: a query error's own message, never the
 * wrapper drizzle adds with the SQL and its parameters. */
export const reasonOf = (error: unknown): string => {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return (cause instanceof Error ? cause.message : String(cause)).slice(0, 300);
};

/**
 * Every list's alerts and deliveries at once in a savepoint; when that fails, list by list (each
 * in its own savepoint) so that only the list at fault is missing, noted in `failures`.
 */
async function writeLists(
  tx: Database,
  lists: Array<{ watchlistId: number; candidates: NewAlert[] }>,
  deliveriesFor: (inserted: AlertRow[]) => NewDelivery[],
  failures: ChunkWritten['failures'],
): Promise<AlertRow[]> {
  if (lists.every((l) => l.candidates.length === 0)) return [];
  const write = async (scope: Database, rows: NewAlert[]): Promise<AlertRow[]> => {
    const inserted = await insertAlertRows(scope, rows);
    await insertDeliveryRows(scope, deliveriesFor(inserted));
    return inserted;
  };
  try {
    return await tx.transaction((sp) =>
      write(
        sp,
        lists.flatMap((l) => l.candidates),
      ),
    );
  } catch {
    const inserted: AlertRow[] = [];
    for (const list of lists) {
      try {
        inserted.push(...(await tx.transaction((sp) => write(sp, list.candidates))));
      } catch (error) {
        failures.push({ watchlistId: list.watchlistId, reason: reasonOf(error) });
      }
    }
    return inserted;
  }
}

/**
 * Writes one chunk of a batch's evaluation in one transaction: advancing the cursor from
 * `after` (whoever advances it first writes the chunk; a second process or a restart finds it
 * moved and writes nothing), the alerts (the unique (list, rule, country, batch) key drops any
 * duplicate), and the deliveries built from the alerts actually inserted. A list whose alerts
 * cannot be written is noted in `alert_list_failures` and the chunk's other lists go on.
 * Returns what was written, or null when another evaluation already wrote this chunk.
 */
export async function writeEvaluationChunk(
  db: Database,
  chunk: EvaluationChunk,
  deliveriesFor: (inserted: AlertRow[]) => NewDelivery[],
): Promise<ChunkWritten | null> {
  return db.transaction(async (tx) => {
    // Compare-and-set on the cursor: the row lock makes a concurrent writer wait, then miss.
    const moved = await tx
      .update(alertEvaluations)
      .set({ pendingAfter: chunk.last ? null : chunk.through })
      .where(
        and(
          eq(alertEvaluations.batchId, chunk.batchId),
          eq(alertEvaluations.pendingAfter, chunk.after),
        ),
      )
      .returning({ batchId: alertEvaluations.batchId });
    if (moved.length === 0) return null;
    const failures: ChunkWritten['failures'] = [];
    const evaluated: Array<{ watchlistId: number; candidates: NewAlert[] }> = [];
    for (const list of chunk.lists) {
      if ('failure' in list) failures.push({ watchlistId: list.watchlistId, reason: list.failure });
      else evaluated.push(list);
    }
    const inserted = await writeLists(tx, evaluated, deliveriesFor, failures);
    if (failures.length > 0) {
      await tx
        .insert(alertListFailures)
        .values(failures.map((f) => ({ batchId: chunk.batchId, ...f })))
        .onConflictDoNothing();
    }
    if (inserted.length > 0) {
      await tx
        .update(alertEvaluations)
        .set({ alerts: sql`${alertEvaluations.alerts} + ${inserted.length}` })
        .where(eq(alertEvaluations.batchId, chunk.batchId));
    }
    return { inserted, failures };
  });
}

/**
 * A pass over the batch failed outside any one list: counts the attempt, and gives the batch up
 * (marks it finished) at `maxAttempts`, so later batches never wait behind it. True when given up.
 */
export async function noteEvaluationFailure(
  db: Database,
  batchId: number,
  maxAttempts: number,
): Promise<boolean> {
  const [row] = await db
    .update(alertEvaluations)
    .set({
      attempts: sql`${alertEvaluations.attempts} + 1`,
      pendingAfter: sql`case when ${alertEvaluations.attempts} + 1 >= ${maxAttempts} then null else ${alertEvaluations.pendingAfter} end`,
    })
    .where(eq(alertEvaluations.batchId, batchId))
    .returning({ pendingAfter: alertEvaluations.pendingAfter });
  return row !== undefined && row.pendingAfter === null;
}

/** Lists whose evaluation of a batch failed (and why). */
export async function selectListFailures(
  db: Database,
  batchId: number,
): Promise<Array<{ watchlistId: number; reason: string }>> {
  return db
    .select({ watchlistId: alertListFailures.watchlistId, reason: alertListFailures.reason })
    .from(alertListFailures)
    .where(eq(alertListFailures.batchId, batchId))
    .orderBy(asc(alertListFailures.watchlistId));
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
      ...alertColumns,
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
