import { and, desc, eq, gte, ilike, lte, sql } from 'drizzle-orm';
import type { RiskEvent } from '../../shared/schemas/event.js';
import type { Database } from './connection.js';
import { events } from './schema.js';

export type EventRow = typeof events.$inferSelect;

export interface EventQuery {
  iso: string | null;
  /** Words searched in headlines (case-insensitive substring). */
  q: string | null;
  from: Date | null;
  to: Date | null;
  role: string | null;
  breaking: boolean | null;
  /** Keyset: strictly older than this (ts, id). */
  before: { ts: Date; id: number } | null;
  limit: number;
}

const ROWS_PER_INSERT = 500;

/**
 * Archives events received for a country. Duplicates (same URL and time, or same headline and
 * source on the same UTC day) are dropped by the unique indexes, so an event the upstream serves
 * in batch after batch is stored once. Events without a parseable time are not archived.
 * Returns how many were new.
 */
export async function insertEvents(
  db: Database,
  iso: string,
  received: readonly RiskEvent[],
  seenAt: Date,
): Promise<number> {
  const rows = received.flatMap((event) => {
    const ts = new Date(event.ts);
    if (Number.isNaN(ts.getTime())) return [];
    return [
      {
        iso,
        ts,
        day: ts.toISOString().slice(0, 10),
        headline: event.headline,
        url: event.url ?? null,
        source: event.source ?? null,
        role: event.role ?? null,
        breaking: event.breaking ?? null,
        payload: event as Record<string, unknown>,
        firstSeen: seenAt,
      },
    ];
  });
  let added = 0;
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    const inserted = await db
      .insert(events)
      .values(rows.slice(i, i + ROWS_PER_INSERT))
      .onConflictDoNothing()
      .returning({ id: events.id });
    added += inserted.length;
  }
  return added;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Newest first, one page plus one row (the caller tells from it whether more exist). */
export async function selectEvents(db: Database, query: EventQuery): Promise<EventRow[]> {
  const { before } = query;
  return db
    .select()
    .from(events)
    .where(
      and(
        query.iso ? eq(events.iso, query.iso) : undefined,
        query.q ? ilike(events.headline, `%${escapeLike(query.q)}%`) : undefined,
        query.from ? gte(events.ts, query.from) : undefined,
        query.to ? lte(events.ts, query.to) : undefined,
        query.role ? eq(events.role, query.role) : undefined,
        query.breaking === null ? undefined : eq(events.breaking, query.breaking),
        before
          ? sql`(${events.ts}, ${events.id}) < (${before.ts.toISOString()}::timestamptz, ${before.id})`
          : undefined,
      ),
    )
    .orderBy(desc(events.ts), desc(events.id))
    .limit(query.limit + 1);
}

export async function deleteEventsBefore(db: Database, before: Date): Promise<number> {
  const deleted = await db
    .delete(events)
    .where(sql`${events.ts} < ${before.toISOString()}::timestamptz`)
    .returning({ id: events.id });
  return deleted.length;
}
