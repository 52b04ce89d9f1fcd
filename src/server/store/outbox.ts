import {
  and,
  asc,
  desc,
  eq,
  gt,
  gte,
  isNotNull,
  isNull,
  lte,
  min,
  or,
  type SQL,
} from 'drizzle-orm';
import { deliveries, deliveryAttempts, watchlists } from './alerts-schema.js';
import type { Database } from './connection.js';

export type DeliveryRow = typeof deliveries.$inferSelect;
export type AttemptRow = typeof deliveryAttempts.$inferSelect;

/**
 * Claims up to `limit` due deliveries for `leaseMs`: the conditional update is atomic, so two
 * processes never send the same one at once, and a process that died mid-send leaves a lease
 * that runs out (the delivery is then sent again, with the same message id).
 * Webhooks of a paused list are left waiting. `fence`: a condition the claim must also meet.
 */
export async function claimDue(
  db: Database,
  now: Date,
  leaseMs: number,
  limit: number,
  fence: SQL | null = null,
): Promise<DeliveryRow[]> {
  const due = await db
    .select({ id: deliveries.id })
    .from(deliveries)
    .innerJoin(watchlists, eq(watchlists.id, deliveries.watchlistId))
    .where(
      and(
        eq(deliveries.state, 'pending'),
        lte(deliveries.nextAttemptAt, now),
        or(isNull(deliveries.lockedUntil), lte(deliveries.lockedUntil, now)),
        or(eq(deliveries.channel, 'email'), isNull(watchlists.webhookPausedAt)),
      ),
    )
    .orderBy(asc(deliveries.nextAttemptAt))
    .limit(limit);
  const claimed: DeliveryRow[] = [];
  for (const { id } of due) {
    const [row] = await db
      .update(deliveries)
      .set({ lockedUntil: new Date(now.getTime() + leaseMs) })
      .where(
        and(
          eq(deliveries.id, id),
          eq(deliveries.state, 'pending'),
          or(isNull(deliveries.lockedUntil), lte(deliveries.lockedUntil, now)),
          // Replicas: only the holder of the current leader lease may claim (a leader that
          // stalled past its lease finds its claims refused).
          fence ?? undefined,
        ),
      )
      .returning();
    if (row) claimed.push(row);
  }
  return claimed;
}

/** The earliest time a pending delivery falls due (to sleep until then). */
export async function nextDueAt(db: Database): Promise<Date | null> {
  const [row] = await db
    .select({ at: min(deliveries.nextAttemptAt) })
    .from(deliveries)
    .where(eq(deliveries.state, 'pending'));
  return row?.at ?? null;
}

export interface AttemptOutcome {
  at: Date;
  status: number | null;
  durationMs: number;
  error: string | null;
  /** delivered, or pending again at `nextAttemptAt`, or failed for good. */
  state: DeliveryRow['state'];
  nextAttemptAt: Date | null;
}

/** Logs an attempt and moves the delivery on, in one transaction. */
export async function recordAttempt(
  db: Database,
  delivery: DeliveryRow,
  outcome: AttemptOutcome,
): Promise<void> {
  await db.transaction(async (tx) => {
    const attempt = delivery.attempts + 1;
    await tx.insert(deliveryAttempts).values({
      deliveryId: delivery.id,
      attempt,
      at: outcome.at,
      status: outcome.status,
      durationMs: outcome.durationMs,
      error: outcome.error,
    });
    await tx
      .update(deliveries)
      .set({
        attempts: attempt,
        state: outcome.state,
        lockedUntil: null,
        lastError: outcome.error,
        nextAttemptAt: outcome.nextAttemptAt ?? delivery.nextAttemptAt,
      })
      .where(eq(deliveries.id, delivery.id));
  });
}

/**
 * Since when a list's webhook has failed without a success in between (null: it is fine).
 * The start of the failing streak decides the 3-day pause.
 */
export async function failingSince(db: Database, watchlistId: number): Promise<Date | null> {
  const ofList = and(eq(deliveries.watchlistId, watchlistId), eq(deliveries.channel, 'webhook'));
  const [lastOk] = await db
    .select({ at: deliveryAttempts.at })
    .from(deliveryAttempts)
    .innerJoin(deliveries, eq(deliveries.id, deliveryAttempts.deliveryId))
    .where(
      and(
        ofList,
        isNotNull(deliveryAttempts.status),
        gte(deliveryAttempts.status, 200),
        lte(deliveryAttempts.status, 299),
      ),
    )
    .orderBy(desc(deliveryAttempts.at))
    .limit(1);
  const [firstFailure] = await db
    .select({ at: min(deliveryAttempts.at) })
    .from(deliveryAttempts)
    .innerJoin(deliveries, eq(deliveries.id, deliveryAttempts.deliveryId))
    .where(and(ofList, lastOk ? gt(deliveryAttempts.at, lastOk.at) : undefined));
  return firstFailure?.at ?? null;
}

export interface LogEntry {
  messageId: string;
  channel: DeliveryRow['channel'];
  state: DeliveryRow['state'];
  attempt: number;
  at: Date;
  status: number | null;
  durationMs: number;
  error: string | null;
}

/** A list's delivery log, newest attempt first. */
export async function selectDeliveryLog(
  db: Database,
  watchlistId: number,
  limit: number,
): Promise<LogEntry[]> {
  return db
    .select({
      messageId: deliveries.messageId,
      channel: deliveries.channel,
      state: deliveries.state,
      attempt: deliveryAttempts.attempt,
      at: deliveryAttempts.at,
      status: deliveryAttempts.status,
      durationMs: deliveryAttempts.durationMs,
      error: deliveryAttempts.error,
    })
    .from(deliveryAttempts)
    .innerJoin(deliveries, eq(deliveries.id, deliveryAttempts.deliveryId))
    .where(eq(deliveries.watchlistId, watchlistId))
    .orderBy(desc(deliveryAttempts.at), desc(deliveryAttempts.attempt))
    .limit(limit);
}

export async function insertDelivery(
  db: Database,
  values: typeof deliveries.$inferInsert,
): Promise<DeliveryRow> {
  const [row] = await db.insert(deliveries).values(values).returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function selectDelivery(db: Database, messageId: string): Promise<DeliveryRow | null> {
  const [row] = await db.select().from(deliveries).where(eq(deliveries.messageId, messageId));
  return row ?? null;
}
