import { setImmediate as nextTurn } from 'node:timers/promises';
import { and, asc, count, desc, eq, gt, gte, inArray, lt, lte, max, min, sql } from 'drizzle-orm';
import type { CountrySummary } from '../../shared/bff-api.js';
import type { GlobalSummary } from '../../shared/schemas/global.js';
import { globalIndexValue } from '../../shared/schemas/global.js';
import type { BatchSource } from '../../shared/history-api.js';
import { rowsOf, type Database } from './connection.js';
import { batches, countryRows } from './schema.js';
import { appendToChain, markPruned } from './batch-chain.js';
import { afterRecording, fillMonthRisks, lockRecording, monthOf, type Range } from './series.js';
import { writeBatchScores } from './team-index.js';

/** Where a batch row came from: the shared sources, or a global-only point of `feed_history`. */
export type StoredSource = BatchSource | 'feed_history';

/** One batch to record: the global summary and every country row of it. */
export interface BatchRecord {
  asOf: Date;
  methodologyVersion: string | null;
  global: GlobalSummary | null;
  source: StoredSource;
  demo: boolean;
  /** Empty for a global-only point (feed_history). */
  countries: CountrySummary[];
  /** Tier counts when known without country rows (feed_history); else counted from them. */
  tierCounts?: Record<string, number> | null;
}

export type BatchRow = typeof batches.$inferSelect;
export type CountryRow = typeof countryRows.$inferSelect;

/**
 * Country rows per insert statement (one JSON parameter each): small enough that running one
 * statement on the embedded store (PGlite runs on this thread) stays within a time slice; the
 * recording yields between statements (issue 32, point 6).
 */
const ROWS_PER_INSERT = 50;

function countTiers(countries: CountrySummary[]): Record<string, number> | null {
  if (countries.length === 0) return null;
  const counts: Record<string, number> = {};
  for (const country of countries) {
    if (country.tier) counts[country.tier] = (counts[country.tier] ?? 0) + 1;
  }
  return counts;
}

/**
 * Upstream text PostgreSQL cannot hold, stored as U+FFFD rather than losing the whole batch: a
 * lone UTF-16 surrogate (JSON.stringify writes an escape PostgreSQL's JSON refuses; as a plain
 * text parameter it became U+FFFD, and still does) and NUL (refused in text and JSON alike).
 */
function wellFormed(_key: string, value: unknown): unknown {
  // eslint-disable-next-line no-control-regex -- NUL is the character refused
  return typeof value === 'string' ? value.replace(/[\p{Cs}\u0000]/gu, '\uFFFD') : value;
}

/**
 * Inserts country rows as one JSON parameter that PostgreSQL unpacks (`jsonb_to_recordset`):
 * bound one value at a time (15 per row), the parameters cost more than the rows, in the query
 * builder and in the embedded store's wire format alike (12 s of the demo seed's 24 s).
 */
async function insertCountryRows(
  tx: Database,
  batchId: number,
  asOf: Date,
  countries: readonly CountrySummary[],
): Promise<void> {
  const rows = countries.map((c) => ({
    iso: c.iso,
    name: c.name,
    risk: c.risk ?? null,
    tier: c.tier ?? null,
    static: c.static ?? null,
    active: c.active ?? null,
    delta_active: c.delta_active ?? null,
    delta_headline: c.delta_headline ?? null,
    confidence: c.confidence ?? null,
    profile: c.profile ?? null,
    threat_vectors: c.threat_vectors ?? null,
    source_count: c.source_count ?? null,
    categories: c.categories ?? null,
  }));
  await tx.execute(sql`
    insert into ${countryRows} (batch_id, as_of, iso, name, risk, tier, static, active,
      delta_active, delta_headline, confidence, profile, threat_vectors, source_count, categories)
    select ${batchId}, ${asOf.toISOString()}::timestamptz, r.iso, r.name, r.risk, r.tier,
      r.static, r.active, r.delta_active, r.delta_headline, r.confidence, r.profile,
      r.threat_vectors, r.source_count, r.categories
    from jsonb_to_recordset(${JSON.stringify(rows, wellFormed)}::jsonb) as r(iso char(3), name text,
      risk double precision, tier text, static double precision, active double precision,
      delta_active double precision, delta_headline double precision,
      confidence double precision, profile text, threat_vectors jsonb, source_count integer,
      categories jsonb)
    on conflict do nothing`);
}

/**
 * Records a batch once: the unique `as_of` decides, inside one transaction, so a restart or a
 * second process recording the same batch stores nothing twice. A global-only point (from
 * `feed_history`) is completed when the batch itself is recorded later. Returns the batch id, or
 * null when the batch was already there.
 */
export async function insertBatch(db: Database, record: BatchRecord): Promise<number | null> {
  // A turn of the event loop between statements: the embedded store settles each as microtasks,
  // so a whole batch (75 ms median, 0.8 s with a month sealed, measured during the demo seed)
  // held every socket. Each statement is a bounded piece of work (ROWS_PER_INSERT).
  return db.transaction(async (tx) => {
    await lockRecording(tx);
    const values = {
      asOf: record.asOf,
      methodologyVersion: record.methodologyVersion,
      global: record.global,
      globalIndex: globalIndexValue(record.global),
      globalStatic: record.global?.static ?? null,
      globalActive: record.global?.active ?? null,
      events24h: record.global?.events_24h ?? null,
      globalTier: record.global?.tier ?? null,
      tierCounts: record.tierCounts ?? countTiers(record.countries),
      countryCount: record.countries.length,
      source: record.source,
      demo: record.demo,
    };
    const inserted = await tx
      .insert(batches)
      .values(values)
      .onConflictDoUpdate({
        target: batches.asOf,
        set: values,
        setWhere: sql`${batches.countryCount} = 0 and excluded.country_count > 0`,
      })
      .returning({ id: batches.id });
    const batchId = inserted[0]?.id;
    if (batchId === undefined) return null;
    const { countries } = record;
    for (let i = 0; i < countries.length; i += ROWS_PER_INSERT) {
      await nextTurn();
      await insertCountryRows(tx, batchId, record.asOf, countries.slice(i, i + ROWS_PER_INSERT));
    }
    if (countries.length > 0) {
      await nextTurn();
      // The team index's compact copy of the categories (issue 31): with its rows or not at all.
      await writeBatchScores(tx, batchId);
      await nextTurn();
      await afterRecording(tx, monthOf(record.asOf));
      await nextTurn();
      // The batch's id is computed in the transaction that records it: no batch is ever kept
      // without its place in the chain.
      await appendToChain(tx, batchId);
    }
    return batchId;
  });
}

function inRange(column: typeof batches.asOf | typeof countryRows.asOf, range: Range) {
  return and(
    range.from ? gte(column, range.from) : undefined,
    range.to ? lte(column, range.to) : undefined,
  );
}

export async function selectBatches(db: Database, range: Range): Promise<BatchRow[]> {
  return db.select().from(batches).where(inRange(batches.asOf, range)).orderBy(asc(batches.asOf));
}

export async function selectCountrySeries(
  db: Database,
  iso: string,
  range: Range,
): Promise<CountryRow[]> {
  return db
    .select()
    .from(countryRows)
    .where(and(eq(countryRows.iso, iso), inRange(countryRows.asOf, range)))
    .orderBy(asc(countryRows.asOf));
}

export async function selectCountrySeen(
  db: Database,
  iso: string,
): Promise<{ first: Date | null; last: Date | null }> {
  const [row] = await db
    .select({ first: min(countryRows.asOf), last: max(countryRows.asOf) })
    .from(countryRows)
    .where(eq(countryRows.iso, iso));
  return { first: row?.first ?? null, last: row?.last ?? null };
}

/** The oldest batch's time (retention removes every batch before it, with its rows). */
export async function selectOldestBatch(db: Database): Promise<Date | null> {
  const [row] = await db.select({ at: min(batches.asOf) }).from(batches);
  return row?.at ?? null;
}

/** The newest batch with country rows at or before `at` (or the newest of all when null). */
export async function selectBatchAtOrBefore(
  db: Database,
  at: Date | null,
): Promise<BatchRow | null> {
  const [row] = await db
    .select()
    .from(batches)
    .where(and(gt(batches.countryCount, 0), at ? lte(batches.asOf, at) : undefined))
    .orderBy(desc(batches.asOf))
    .limit(1);
  return row ?? null;
}

/** The newest `n` batches with country rows, newest first. */
export async function selectLatestBatches(db: Database, n: number): Promise<BatchRow[]> {
  return db
    .select()
    .from(batches)
    .where(gt(batches.countryCount, 0))
    .orderBy(desc(batches.asOf))
    .limit(n);
}

export async function selectCountryRows(db: Database, batchId: number): Promise<CountryRow[]> {
  return db.select().from(countryRows).where(eq(countryRows.batchId, batchId));
}

/**
 * The latest row of each of `isos` recorded at or after `since` and before `before`: one index
 * range per country (`country_rows_iso_as_of`), at most one row each.
 */
export async function selectLatestRowsBefore(
  db: Database,
  isos: readonly string[],
  since: Date,
  before: Date,
): Promise<CountryRow[]> {
  if (isos.length === 0) return [];
  return db
    .selectDistinctOn([countryRows.iso])
    .from(countryRows)
    .where(
      and(
        inArray(countryRows.iso, [...isos]),
        gte(countryRows.asOf, since),
        lt(countryRows.asOf, before),
      ),
    )
    .orderBy(countryRows.iso, desc(countryRows.asOf));
}

export interface BatchCoverage {
  since: Date | null;
  latest: Date | null;
  batches: number;
  demoSeeded: boolean;
}

export async function selectCoverage(db: Database): Promise<BatchCoverage> {
  const [row] = await db
    .select({
      since: min(batches.asOf),
      latest: max(batches.asOf),
      batches: count(),
      demo: sql<boolean>`coalesce(bool_or(${batches.demo}), false)`,
    })
    .from(batches);
  return {
    since: row?.since ?? null,
    latest: row?.latest ?? null,
    batches: Number(row?.batches ?? 0),
    demoSeeded: Boolean(row?.demo),
  };
}

/** Seals every closed month that has no blocks yet, and gives sealed months their risk series (a store written before either existed). */
export async function sealClosedMonths(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    await lockRecording(tx);
    await afterRecording(tx, null);
    await fillMonthRisks(tx);
  });
}

/** Retention: batches (and, by cascade, their country rows) older than `before`. */
export async function deleteBatchesBefore(db: Database, before: Date): Promise<number> {
  // A turn of the event loop between statements: the embedded store settles each as microtasks,
  // so a whole batch (75 ms median, 0.8 s with a month sealed, measured during the demo seed)
  // held every socket. Each statement is a bounded piece of work (ROWS_PER_INSERT).
  return db.transaction(async (tx) => {
    await lockRecording(tx);
    const deleted = await tx
      .delete(batches)
      .where(sql`${batches.asOf} < ${before.toISOString()}`)
      .returning({ id: batches.id });
    // Retention's removals are marked in the chain with them, so they never read as tampering.
    await markPruned(
      tx,
      deleted.map((row) => row.id),
    );
    return deleted.length;
  });
}

export async function hasBatch(db: Database, asOf: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: batches.id })
    .from(batches)
    .where(and(eq(batches.asOf, asOf), gt(batches.countryCount, 0)))
    .limit(1);
  return row !== undefined;
}

/** One country's numbers as alert rules read them: iso, risk, tier, active. */
export type RuleNumbersRow = [string, number | null, string | null, number | null];

/**
 * The numbers alert rules read of every country of these batches, one JSON text per batch:
 * drizzle's mapping of ~245,000 separate rows at two years cost more CPU than the read itself
 * (the backtest's first run took 5 s); one aggregated text per batch is parsed natively.
 */
export async function selectRuleNumbers(
  db: Database,
  batchIds: readonly number[],
): Promise<Map<number, RuleNumbersRow[]>> {
  const out = new Map<number, RuleNumbersRow[]>();
  if (batchIds.length === 0) return out;
  const rows = rowsOf(
    await db.execute(sql`
      select batch_id, json_agg(json_build_array(iso, risk, tier, active))::text as numbers
      from country_rows where batch_id in (${sql.join(
        batchIds.map((id) => sql`${id}`),
        sql`, `,
      )})
      group by batch_id`),
  );
  for (const row of rows) {
    out.set(Number(row.batch_id), JSON.parse(String(row.numbers)) as RuleNumbersRow[]);
  }
  return out;
}

/**
 * Every recorded risk of these countries, in no order (sorted in code: see selectCountryPoints):
 * what the exposure index's trend over the whole history is computed from, in one pass.
 */
export async function selectRisksOf(
  db: Database,
  isos: string[],
): Promise<Array<{ asOf: Date; iso: string; risk: number | null }>> {
  if (isos.length === 0) return [];
  return db
    .select({ asOf: countryRows.asOf, iso: countryRows.iso, risk: countryRows.risk })
    .from(countryRows)
    .where(inArray(countryRows.iso, isos));
}
