import {
  aliasedTable,
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
  not,
  notExists,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import { deliveries, deliveryAttempts, watchlists } from './alerts-schema.js';
import type { Database } from './connection.js';

export type DeliveryRow = typeof deliveries.$inferSelect;
export type AttemptRow = typeof deliveryAttempts.$inferSelect;

/**
 * Where a delivery goes, and what runs strictly one at a time: one list's webhook, or the SMTP
 * server (every digest passes through it, so a hanging one holds one lane, not one per list).
 */
export type Endpoint = { channel: 'webhook'; watchlistId: number } | { channel: 'email' };

export function endpointKey(endpoint: Endpoint): string {
  return endpoint.channel === 'webhook' ? `webhook:${endpoint.watchlistId}` : 'email';
}

/** The SQL condition "this delivery goes to `endpoint`". */
function bound(endpoint: Endpoint): SQL {
  return endpoint.channel === 'webhook'
    ? and(eq(deliveries.channel, 'webhook'), eq(deliveries.watchlistId, endpoint.watchlistId))!
    : eq(deliveries.channel, 'email');
}

// Webhooks of a paused list are left waiting (saving the list resumes them).
const notPaused = or(eq(deliveries.channel, 'email'), isNull(watchlists.webhookPausedAt));
const endpointList = sql<number | null>`case when ${deliveries.channel} = 'webhook'
  then ${deliveries.watchlistId} end`.mapWith(Number);

/** Pending deliveries of endpoints that are not in `busy` (in flight in this process). */
function pendingOutside(busy: readonly Endpoint[]): SQL {
  return and(
    eq(deliveries.state, 'pending'),
    notPaused,
    ...busy.map((endpoint) => not(bound(endpoint))),
  )!;
}

/**
 * Up to `limit` endpoints with a delivery to send now, the longest waiting first: none in `busy`
 * and none with a live claim anywhere (another process still sending to it).
 */
export async function dueEndpoints(
  db: Database,
  now: Date,
  limit: number,
  busy: readonly Endpoint[],
): Promise<Endpoint[]> {
  const rows = await db
    .select({ channel: deliveries.channel, watchlistId: endpointList })
    .from(deliveries)
    .innerJoin(watchlists, eq(watchlists.id, deliveries.watchlistId))
    .where(pendingOutside(busy))
    .groupBy(deliveries.channel, endpointList)
    .having(
      and(
        lte(min(deliveries.nextAttemptAt), now),
        sql`not coalesce(bool_or(${gt(deliveries.lockedUntil, now)}), false)`,
      ),
    )
    .orderBy(asc(min(deliveries.nextAttemptAt)))
    .limit(limit);
  return rows.map((row) =>
    row.channel === 'webhook'
      ? { channel: 'webhook', watchlistId: Number(row.watchlistId) }
      : { channel: 'email' },
  );
}

/**
 * When an endpoint outside `busy` next has something to send (to sleep until then): its oldest
 * pending delivery's time, or later while a claim on it is live (it may be a crashed process's).
 */
export async function nextDueAt(db: Database, busy: readonly Endpoint[]): Promise<Date | null> {
  const readyAt = sql<Date>`greatest(min(${deliveries.nextAttemptAt}),
    max(${deliveries.lockedUntil}))`.mapWith(deliveries.nextAttemptAt);
  const [row] = await db
    .select({ at: readyAt })
    .from(deliveries)
    .innerJoin(watchlists, eq(watchlists.id, deliveries.watchlistId))
    .where(pendingOutside(busy))
    .groupBy(deliveries.channel, endpointList)
    .orderBy(readyAt)
    .limit(1);
  return row?.at ?? null;
}

/**
 * Claims the next due delivery of one endpoint for `leaseMs` (oldest first; null when none).
 * The conditional update is atomic, so two processes never send one delivery at once; a claim
 * left by a process that died mid-send runs out and the delivery is claimed again (same message
 * id). `fence`: a condition the claim must also meet.
 */
export async function claimNext(
  db: Database,
  endpoint: Endpoint,
  now: Date,
  leaseMs: number,
  fence: SQL | null = null,
): Promise<DeliveryRow | null> {
  // A claim that ran out (its process crashed) counts as no claim.
  const unclaimed = or(isNull(deliveries.lockedUntil), lte(deliveries.lockedUntil, now));
  const [due] = await db
    .select({ id: deliveries.id })
    .from(deliveries)
    .innerJoin(watchlists, eq(watchlists.id, deliveries.watchlistId))
    .where(
      and(
        bound(endpoint),
        eq(deliveries.state, 'pending'),
        notPaused,
        lte(deliveries.nextAttemptAt, now),
        unclaimed,
      ),
    )
    .orderBy(asc(deliveries.nextAttemptAt), asc(deliveries.id))
    .limit(1);
  if (!due) return null;
  const other = aliasedTable(deliveries, 'other');
  const [row] = await db
    .update(deliveries)
    .set({ lockedUntil: new Date(now.getTime() + leaseMs) })
    .where(
      and(
        eq(deliveries.id, due.id),
        eq(deliveries.state, 'pending'),
        unclaimed,
        // One delivery per endpoint in flight, across processes: none of its others is claimed.
        notExists(
          db
            .select({ one: sql`1` })
            .from(other)
            .where(
              and(
                eq(other.state, 'pending'),
                eq(other.channel, endpoint.channel),
                endpoint.channel === 'webhook'
                  ? eq(other.watchlistId, endpoint.watchlistId)
                  : undefined,
                gt(other.lockedUntil, now),
              ),
            ),
        ),
        // Replicas: only the holder of the current leader lease may claim (a leader that
        // stalled past its lease finds its claims refused).
        fence ?? undefined,
      ),
    )
    .returning();
  return row ?? null;
}

/**
 * A new term of leadership takes over the claims of earlier terms: each live claim on a pending
 * delivery is released, so the delivery is due again now instead of when the claim runs out.
 * Without this, a leader that died mid-send left its claim for LEASE_MS (2 min), and since one
 * delivery per endpoint is in flight, every later delivery to that endpoint waited with it.
 * Run by the new leader's outbox before its first claim, fenced like a claim, so only the
 * current holder of the lease releases anything; this process's own earlier outbox has stopped
 * by then, so every live claim is another term's. The delivery is sent again under its message
 * id: the previous leader may have sent it (receivers deduplicate by webhook-id), never lost.
 * Returns how many claims were taken over.
 */
export async function takeOverClaims(db: Database, now: Date, fence: SQL): Promise<number> {
  const rows = await db
    .update(deliveries)
    .set({ lockedUntil: null })
    .where(and(eq(deliveries.state, 'pending'), gt(deliveries.lockedUntil, now), fence))
    .returning({ id: deliveries.id });
  return rows.length;
}

/** Where a list's webhooks go now (null: the list has none any more). */
export async function selectWebhookTarget(
  db: Database,
  watchlistId: number,
): Promise<{ url: string; secret: string } | null> {
  const [row] = await db
    .select({ url: watchlists.webhookUrl, secret: watchlists.webhookSecret })
    .from(watchlists)
    .where(eq(watchlists.id, watchlistId));
  return row?.url && row.secret ? { url: row.url, secret: row.secret } : null;
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
