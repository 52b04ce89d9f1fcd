import { aliasedTable, and, desc, eq, gte, ilike, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { RiskEvent } from '../../shared/schemas/event.js';
import type { Database } from './connection.js';
import { events } from './schema.js';

export type EventRow = typeof events.$inferSelect;

export interface EventQuery {
  /** The countries asked (any of them); null: every country. */
  isos: readonly string[] | null;
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

/** An archived event with every asked country it was received for (its own first). */
export type FoundEvent = EventRow & { countries: string[] };

/** The query's filters on one copy of the table (the keyset cursor aside). */
function filtersOn(table: typeof events, query: EventQuery): SQL | undefined {
  return and(
    query.isos ? inArray(table.iso, [...query.isos]) : undefined,
    query.q ? ilike(table.headline, `%${escapeLike(query.q)}%`) : undefined,
    query.from ? gte(table.ts, query.from) : undefined,
    query.to ? lte(table.ts, query.to) : undefined,
    query.role ? eq(table.role, query.role) : undefined,
    query.breaking === null ? undefined : eq(table.breaking, query.breaking),
  );
}

/**
 * The same event received for another country: what the archive's unique indexes call one event
 * within a country (same URL and time, or same headline and source on the same UTC day).
 */
function sameEvent(other: typeof events): SQL {
  // The day's bounds first: they let the time index narrow the twins to one UTC day.
  const dayStart = sql`(${events.day}::timestamp at time zone 'UTC')`;
  const dayEnd = sql`((${events.day} + 1)::timestamp at time zone 'UTC')`;
  return sql`${other.ts} >= ${dayStart} and ${other.ts} < ${dayEnd} and ((${other.url} is not null and ${other.url} = ${events.url} and ${other.ts} = ${events.ts})
    or (lower(${other.headline}) = lower(${events.headline})
      and coalesce(${other.source}, '') = coalesce(${events.source}, '') and ${other.day} = ${events.day}))`;
}

/**
 * Newest first, one page plus one row (the caller tells from it whether more exist). An event
 * received for several of the asked countries is listed once: as its oldest archived copy (the
 * lowest id among the copies that pass the filters, so pages stay stable), with every asked
 * country it names in `countries`.
 */
export async function selectEvents(db: Database, query: EventQuery): Promise<FoundEvent[]> {
  const { before } = query;
  const twin = aliasedTable(events, 'twin');
  const twinFilters = filtersOn(twin, query);
  // `from events twin`: drizzle names an aliased table by its alias alone in raw SQL.
  const twins = sql`from ${events} ${sql.identifier('twin')} where ${sameEvent(twin)}${twinFilters ? sql` and ${twinFilters}` : sql``}`;
  return db
    .select({
      ...getColumns(),
      countries: sql<string[]>`array(select twin.iso ${twins} order by twin.id)`,
    })
    .from(events)
    .where(
      and(
        filtersOn(events, query),
        sql`not exists (select 1 ${twins} and twin.id < ${events.id})`,
        before
          ? sql`(${events.ts}, ${events.id}) < (${before.ts.toISOString()}::timestamptz, ${before.id})`
          : undefined,
      ),
    )
    .orderBy(desc(events.ts), desc(events.id))
    .limit(query.limit + 1);
}

function getColumns() {
  const { id, iso, ts, day, headline, url, source, role, breaking, payload, firstSeen } = events;
  return { id, iso, ts, day, headline, url, source, role, breaking, payload, firstSeen };
}

export async function deleteEventsBefore(db: Database, before: Date): Promise<number> {
  const deleted = await db
    .delete(events)
    .where(sql`${events.ts} < ${before.toISOString()}::timestamptz`)
    .returning({ id: events.id });
  return deleted.length;
}
