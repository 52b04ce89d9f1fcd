import { setImmediate as nextTurn } from 'node:timers/promises';
import { and, eq, gte, inArray, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Database } from './connection.js';
import { monthRisks, type MonthRiskSeries } from './month-risks-schema.js';
import { countryMonths, countryRows, sealedMonths, type MonthPoint } from './schema.js';

/** A time range of batches; null ends are open. */
export interface Range {
  from: Date | null;
  to: Date | null;
}

/*
 * A country's series read from monthly blocks (see `country_months` in schema.ts). Sealing runs
 * inside the recording transaction, after `lockRecording`, so two processes never seal or unseal
 * the same month at once.
 */

type Tx = Pick<Database, 'execute' | 'select' | 'delete' | 'insert'>;

// Any fixed number shared by every process of this product; held by each recording transaction.
const RECORDING_LOCK = 7_190_424_002;

/** `YYYY-MM-01` of the UTC month of `at`. */
export function monthOf(at: Date): string {
  return `${at.toISOString().slice(0, 7)}-01`;
}

function monthStart(month: string): Date {
  return new Date(`${month}T00:00:00.000Z`);
}

function nextMonthStart(month: string): Date {
  const start = monthStart(month);
  return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
}

/** Serialises recording across processes (PostgreSQL); harmless on PGlite's one connection. */
export async function lockRecording(tx: Tx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${RECORDING_LOCK})`);
}

/**
 * A batch was just recorded into `month`: if that month was already sealed (a late batch, e.g. a
 * gap filled after a restart), its blocks are dropped, to be rebuilt once the month is closed
 * again. Then every closed month without blocks is sealed, except the one just written to (an
 * oldest-first backfill of an old month seals it once, when the next month starts).
 */
export async function afterRecording(tx: Tx, month: string | null): Promise<void> {
  if (month !== null) {
    const unsealed = await tx
      .delete(sealedMonths)
      .where(eq(sealedMonths.month, month))
      .returning({ month: sealedMonths.month });
    // A block is read whenever it exists: the month's rows are read instead until it is resealed.
    // Its risk series stays until the month is sealed again (replaced then): it is read only
    // for sealed months.
    if (unsealed.length > 0) await tx.delete(countryMonths).where(eq(countryMonths.month, month));
  }
  const months = rowsOf(
    await tx.execute(sql`
      select m.month from (
        select distinct to_char(date_trunc('month', as_of at time zone 'UTC'), 'YYYY-MM-DD') as month
        from batches where country_count > 0
      ) m
      where not exists (select 1 from sealed_months s where s.month = m.month::date)
      order by m.month`),
  ).map((row) => String(row.month));
  const newest = await newestMonth(tx);
  for (const candidate of months) {
    if (newest !== null && candidate < newest && candidate !== month) await seal(tx, candidate);
  }
}

async function newestMonth(tx: Tx): Promise<string | null> {
  const [row] = rowsOf(
    await tx.execute(sql`
      select to_char(date_trunc('month', max(as_of) at time zone 'UTC'), 'YYYY-MM-DD') as month
      from batches where country_count > 0`),
  );
  return row?.month ? String(row.month) : null;
}

/** The ids of a month's batches with countries, as the array literal its statements take. */
async function monthBatchIds(tx: Tx, month: string): Promise<string> {
  const ids = rowsOf(
    await tx.execute(sql`
      select id from batches
      where country_count > 0 and as_of >= ${monthStart(month).toISOString()}
        and as_of < ${nextMonthStart(month).toISOString()}`),
  ).map((row) => Number(row.id));
  return `{${ids.join(',')}}`;
}

/** Each country's risk series of a month (`month_risks`), from its rows, in one statement. */
async function writeMonthRisks(tx: Tx, month: string, ids: string): Promise<void> {
  await tx.execute(sql`
    insert into month_risks (iso, month, series)
    select r.iso, ${month}::date, json_build_object(
        'at', json_agg(round(extract(epoch from r.as_of) * 1000)::bigint order by r.as_of),
        'risk', json_agg(r.risk order by r.as_of))
    from country_rows r
    where r.batch_id = any(${ids}::bigint[])
    group by r.iso
    on conflict (iso, month) do update set series = excluded.series`);
}

/**
 * Sealed months without their risk series (sealed before `month_risks` existed) get them: once,
 * at start-up, as the blocks did; after that every seal writes both.
 */
export async function fillMonthRisks(tx: Tx): Promise<void> {
  const months = rowsOf(
    await tx.execute(sql`
      select to_char(s.month, 'YYYY-MM-DD') as month from sealed_months s
      where not exists (select 1 from month_risks r where r.month = s.month)`),
  ).map((row) => String(row.month));
  for (const month of months) await writeMonthRisks(tx, month, await monthBatchIds(tx, month));
}

/**
 * Builds every country's block of a closed month from its country rows, in one statement, and
 * its risk series: a sealed month has both, or its rows are read.
 */
/**
 * Countries per statement when a month is sealed: all of a month's rows in one statement held
 * the embedded store's thread (and every socket) for 0.6-1.0 s during the demo seed (issue 32,
 * point 6); each group is its own statement, with a turn of the event loop before it.
 */
const SEAL_COUNTRIES_PER_STATEMENT = 40;

async function seal(tx: Tx, month: string): Promise<void> {
  const ids = await monthBatchIds(tx, month);
  // By batch id (country_rows' primary key starts with it): without statistics (PGlite runs no
  // autovacuum, so no ANALYZE) a join to batches was planned as a scan of the whole table. The
  // month's ~10,000 rows (~14 MB) are sorted by country in memory, not in temporary files.
  await tx.execute(sql`set local work_mem = '64MB'`);
  const isos = rowsOf(
    await tx.execute(sql`
      select distinct r.iso from country_rows r where r.batch_id = any(${ids}::bigint[])
      order by r.iso`),
  ).map((row) => String(row.iso));
  for (let i = 0; i < isos.length; i += SEAL_COUNTRIES_PER_STATEMENT) {
    await nextTurn();
    // Codes read from the store (three letters each): safe inside an array literal.
    const group = `{${isos.slice(i, i + SEAL_COUNTRIES_PER_STATEMENT).join(',')}}`;
    await tx.execute(sql`
      insert into country_months (iso, month, points)
      select r.iso, ${month}::date, json_agg(json_build_object(
          'as_of', to_char(r.as_of at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          'name', r.name, 'risk', r.risk, 'tier', r.tier, 'static', r.static, 'active', r.active,
          'confidence', r.confidence, 'categories', r.categories) order by r.as_of)
      from country_rows r
      where r.batch_id = any(${ids}::bigint[]) and r.iso = any(${group}::bpchar[])
      group by r.iso
      on conflict (iso, month) do update set points = excluded.points`);
  }
  await nextTurn();
  await writeMonthRisks(tx, month, ids);
  await tx.insert(sealedMonths).values({ month }).onConflictDoNothing();
}

/** Retention: blocks of months wholly before `before` (a block straddling it is filtered on read). */
export async function deleteMonthsBefore(db: Tx, before: Date): Promise<void> {
  const month = monthOf(before);
  await db.delete(countryMonths).where(lt(countryMonths.month, month));
  await db.delete(monthRisks).where(lt(monthRisks.month, month));
  await db.delete(sealedMonths).where(lt(sealedMonths.month, month));
}

/** Time spans of `range` outside the given (sorted) months, as conditions on `country_rows.as_of`. */
function openSpans(months: string[], range: Range): SQL[] {
  const spans: SQL[] = [];
  let from: Date | null = range.from;
  const bounded = (start: Date | null, end: Date | null): SQL | undefined =>
    and(
      start ? gte(countryRows.asOf, start) : undefined,
      end ? lt(countryRows.asOf, end) : undefined,
    );
  for (const month of months) {
    const start = monthStart(month);
    const end = nextMonthStart(month);
    if (range.to && start > range.to) break;
    if (from && end <= from) continue;
    if (!from || start > from) {
      const span = bounded(from, start);
      if (span) spans.push(span);
    }
    from = end;
  }
  const last = and(
    from ? gte(countryRows.asOf, from) : undefined,
    range.to ? lte(countryRows.asOf, range.to) : undefined,
  );
  if (!range.to || !from || from <= range.to) spans.push(last ?? sql`true`);
  return spans;
}

const rowPoint = {
  asOf: countryRows.asOf,
  name: countryRows.name,
  risk: countryRows.risk,
  tier: countryRows.tier,
  static: countryRows.static,
  active: countryRows.active,
  confidence: countryRows.confidence,
  categories: countryRows.categories,
};

/**
 * One country's points in `range`, oldest first: its blocks (a block exists only for a sealed
 * month), and its rows of the months without a block. `floor` is the oldest time the store
 * still holds (its oldest batch, or the country's oldest row): older points of a block straddling
 * the retention window were pruned from the rows and are dropped here.
 */
export async function selectCountryPoints(
  db: Database,
  iso: string,
  range: Range,
  floor: Date | null,
): Promise<{ points: MonthPoint[]; bytes: number }> {
  if (floor === null) return { points: [], bytes: 0 };
  // As text, parsed here: its length sizes the answer for the memo without serialising it again.
  const blocks = await db
    .select({ month: countryMonths.month, text: sql<string>`${countryMonths.points}::text` })
    .from(countryMonths)
    .where(
      and(
        eq(countryMonths.iso, iso),
        range.from ? gte(countryMonths.month, monthOf(range.from)) : undefined,
        range.to ? lte(countryMonths.month, monthOf(range.to)) : undefined,
      ),
    );
  // No ORDER BY here or below: the points are sorted once in code (in a fresh PGlite, a Sort
  // node over the rows cost ~150 ms where the scan itself took 1 ms).
  const spans = openSpans(blocks.map((block) => block.month).sort(), range);
  const rows =
    spans.length === 0
      ? []
      : await db
          .select(rowPoint)
          .from(countryRows)
          .where(and(eq(countryRows.iso, iso), or(...spans)));
  const lowest = [floor.toISOString(), range.from?.toISOString() ?? ''].sort().at(-1) ?? '';
  const highest = range.to?.toISOString() ?? null;
  const points: MonthPoint[] = [];
  let bytes = 0;
  for (const block of blocks) {
    const all = JSON.parse(block.text) as MonthPoint[];
    const kept = all.filter((p) => p.as_of >= lowest && (highest === null || p.as_of <= highest));
    points.push(...kept);
    bytes += Math.ceil((block.text.length * kept.length) / Math.max(1, all.length));
  }
  for (const row of rows) {
    const point: MonthPoint = {
      as_of: row.asOf.toISOString(),
      name: row.name,
      risk: row.risk,
      tier: row.tier,
      static: row.static,
      active: row.active,
      confidence: row.confidence,
      categories: row.categories,
    };
    points.push(point);
    bytes += JSON.stringify(point).length;
  }
  // Blocks and open spans never overlap in time; one sort puts the two sources in order.
  points.sort((a, b) => (a.as_of < b.as_of ? -1 : a.as_of > b.as_of ? 1 : 0));
  return { points, bytes };
}

/**
 * Every recorded risk of `isos`: sealed months from their risk series (`month_risks`, about 24
 * rows a country over two years), the other months from `country_rows`; what `/api/exposure`'s
 * index reads. Points older than the oldest batch still held (retention cut their month) are
 * left out, as the rows are.
 */
export async function selectRiskHistory(
  db: Database,
  isos: string[],
): Promise<Array<{ at: number; iso: string; risk: number | null }>> {
  if (isos.length === 0) return [];
  const [floorRow] = rowsOf(await db.execute(sql`select min(as_of) as floor from batches`));
  if (!floorRow?.floor) return [];
  const floor = new Date(floorRow.floor as string | Date).getTime();
  const months = (await db.select({ month: sealedMonths.month }).from(sealedMonths))
    .map((row) => row.month)
    .sort();
  // Only sealed months' series: a month a late batch unsealed is read from its rows.
  const series = await db
    .select({ iso: monthRisks.iso, text: sql<string>`${monthRisks.series}::text` })
    .from(monthRisks)
    .where(and(inArray(monthRisks.iso, isos), inArray(monthRisks.month, months)));
  const rows = await db
    .select({ asOf: countryRows.asOf, iso: countryRows.iso, risk: countryRows.risk })
    .from(countryRows)
    .where(and(inArray(countryRows.iso, isos), or(...openSpans(months, { from: null, to: null }))));
  const found: Array<{ at: number; iso: string; risk: number | null }> = [];
  for (const row of series) {
    const iso = row.iso.trim();
    const { at, risk } = JSON.parse(row.text) as MonthRiskSeries;
    for (const [i, time] of at.entries()) {
      // Retention pruned these points' rows; the series still holds them until its month goes.
      if (time >= floor) found.push({ at: time, iso, risk: risk[i] ?? null });
    }
  }
  for (const row of rows)
    found.push({ at: row.asOf.getTime(), iso: row.iso.trim(), risk: row.risk });
  return found;
}
