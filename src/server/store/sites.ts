import { setImmediate as nextTurn } from 'node:timers/promises';
import { and, asc, count, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { rowsOf, type Database } from './connection.js';
import { sites, sitesRevision } from './sites-schema.js';

export type SiteRow = typeof sites.$inferSelect;
/** The columns the table sets itself: the id and the bookkeeping. */
const OWN_COLUMNS = ['id', 'version', 'createdAt', 'updatedAt'] as const;
/** What a write sets: everything but the id and the bookkeeping columns. */
export type SiteValues = Omit<SiteRow, (typeof OWN_COLUMNS)[number]>;

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

/**
 * Rows a statement: one JSON parameter of about 250 KB. The embedded store runs each statement on
 * the main thread, so each is kept to tens of milliseconds (issue 29), with a turn between them.
 */
const WRITE_CHUNK = 500;
/**
 * Refs looked up per statement when an import matches its rows: 1,000 full rows took 90-270 ms
 * of the main thread with PGlite, 100 take a tenth of that (issue 29).
 */
const READ_CHUNK = 100;
const SITES_LOCK = 'sites:write';

/** Raises the sites revision inside the write's own transaction (see sites-schema.ts). */
async function bump(tx: Tx): Promise<void> {
  await tx
    .insert(sitesRevision)
    .values({ id: 1, revision: 1 })
    .onConflictDoUpdate({
      target: sitesRevision.id,
      set: { revision: sql`${sitesRevision.revision} + 1` },
    });
}

export async function selectSitesRevision(db: Database): Promise<number> {
  const [row] = await db.select().from(sitesRevision).where(eq(sitesRevision.id, 1));
  return row?.revision ?? 0;
}

export async function selectAllSites(db: Database): Promise<SiteRow[]> {
  return db.select().from(sites).orderBy(asc(sites.id));
}

export async function countSites(db: Database): Promise<number> {
  const [row] = await db.select({ n: count() }).from(sites);
  return Number(row?.n ?? 0);
}

export async function selectSite(db: Database, id: number): Promise<SiteRow | null> {
  const [row] = await db.select().from(sites).where(eq(sites.id, id));
  return row ?? null;
}

export async function selectSitesByRef(db: Database, refs: string[]): Promise<SiteRow[]> {
  const found: SiteRow[] = [];
  for (let i = 0; i < refs.length; i += READ_CHUNK) {
    // The embedded store reads on the main thread: sockets get a turn between chunks.
    if (i > 0) await nextTurn();
    const part = refs.slice(i, i + READ_CHUNK);
    found.push(...(await db.select().from(sites).where(inArray(sites.ref, part))));
  }
  return found;
}

/** Each field a write sets, with its column's name (what `jsonb_to_recordset` reads). */
const VALUE_COLUMNS = Object.entries(getTableColumns(sites))
  .filter(([field]) => !(OWN_COLUMNS as readonly string[]).includes(field))
  .map(([field, column]) => [field as keyof SiteValues, column.name] as const);

/** One site as the JSON row `jsonb_to_recordset` reads (column names as in the table). */
function recordOf(row: SiteValues): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const [field, column] of VALUE_COLUMNS) record[column] = row[field];
  return record;
}

/**
 * Inserts or replaces a chunk of sites in one statement with one JSON parameter: building a
 * 2,000-row VALUES list (42,000 bound values) cost most of a 20,000-site import's CPU in the
 * query builder and the driver (docs/benchmarks.md). Doubles survive the trip exactly (JSON's
 * shortest round-trip digits, read back as float8), so a re-import still finds its rows unchanged.
 */
async function writeChunk(
  tx: Tx,
  chunk: SiteValues[],
): Promise<Array<{ ref: string; id: number }>> {
  const json = JSON.stringify(chunk.map(recordOf));
  const result = await tx.execute(sql`
    insert into sites (ref, name, kind, lat, lng, iso, placed_by, people, value, currency, tags,
      trip_from, trip_to, nearby, alert_on, alert_radius_km, alert_min_delta)
    select ref, name, kind, lat, lng, iso, placed_by, people, value, currency, tags,
      trip_from, trip_to, nearby, alert_on, alert_radius_km, alert_min_delta
    from jsonb_to_recordset(${json}::jsonb) as x(ref text, name text, kind text,
      lat double precision, lng double precision, iso char(3), placed_by text, people integer,
      value double precision, currency text, tags jsonb, trip_from date, trip_to date,
      nearby jsonb, alert_on boolean, alert_radius_km integer, alert_min_delta double precision)
    -- One site per ref (unique index sites_ref_key): a known ref is replaced, never doubled.
    on conflict (ref) do update set
      name = excluded.name, kind = excluded.kind, lat = excluded.lat, lng = excluded.lng,
      iso = excluded.iso, placed_by = excluded.placed_by, people = excluded.people,
      value = excluded.value, currency = excluded.currency, tags = excluded.tags,
      trip_from = excluded.trip_from, trip_to = excluded.trip_to, nearby = excluded.nearby,
      alert_on = excluded.alert_on, alert_radius_km = excluded.alert_radius_km,
      alert_min_delta = excluded.alert_min_delta,
      version = sites.version + 1, updated_at = now()
    returning id, ref`);
  return rowsOf(result).map((r) => ({ ref: String(r.ref), id: Number(r.id) }));
}

class OverLimit extends Error {}

/**
 * Writes an import's rows (new refs inserted, known refs replaced) in one transaction: a process
 * that dies mid-import leaves the sites as they were. Refused (null, nothing written) when the
 * sites would then number more than `limit`: counted after the writes, inside the transaction,
 * which then rolls back; one lock serialises imports, so two cannot both take the last places.
 *
 * Each row is written only if its site is still at the version the import read (`expected`: the
 * version, or null for a ref that had no site): the rows are locked (`for update`) and compared
 * inside the transaction, so an edit (PUT), a delete or another site made with the same ref
 * between the import's read and its write is never overwritten. Such rows are left out and
 * named in `moved` with the version they are at now (null: the site is gone).
 */
export async function upsertSites(
  db: Database,
  rows: SiteValues[],
  limit: number,
  expected: ReadonlyMap<string, number | null> = new Map(),
): Promise<{
  ids: Map<string, number>;
  total: number;
  moved: Map<string, number | null>;
} | null> {
  try {
    return await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${SITES_LOCK}))`);
      const moved = new Map<string, number | null>();
      const current = new Map<string, number>();
      const refs = rows.map((row) => row.ref);
      for (let i = 0; i < refs.length; i += READ_CHUNK) {
        // As in selectSitesByRef: 200 chunks of a 20,000-row import read without a turn held
        // the thread for 150-450 ms.
        if (i > 0) await nextTurn();
        const part = refs.slice(i, i + READ_CHUNK);
        const held = await tx
          .select({ ref: sites.ref, version: sites.version })
          .from(sites)
          .where(inArray(sites.ref, part))
          .for('update');
        for (const row of held) current.set(row.ref, row.version);
      }
      for (const [ref, version] of expected) {
        const now = current.get(ref) ?? null;
        if (now !== version) moved.set(ref, now);
      }
      const writes = rows.filter((row) => !moved.has(row.ref));
      const ids = new Map<string, number>();
      for (let i = 0; i < writes.length; i += WRITE_CHUNK) {
        // One bounded statement a chunk; sockets get a turn between them (cached answers never
        // wait for this transaction, which only other site writes do).
        if (i > 0) await nextTurn();
        for (const w of await writeChunk(tx, writes.slice(i, i + WRITE_CHUNK))) {
          ids.set(w.ref, w.id);
        }
      }
      const [held] = await tx.select({ n: count() }).from(sites);
      const total = Number(held?.n ?? 0);
      // Past the limit: the whole import is rolled back, so nothing of it is half-written.
      if (total > limit) throw new OverLimit();
      if (writes.length > 0) await bump(tx);
      return { ids, total, moved };
    });
  } catch (error) {
    if (error instanceof OverLimit) return null;
    throw error;
  }
}

/** Replaces a site only if it is still at `version` (the ETag the editor saw); else null. */
export async function updateSite(
  db: Database,
  id: number,
  version: number,
  values: SiteValues,
): Promise<SiteRow | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(sites)
      .set({ ...values, version: sql`${sites.version} + 1`, updatedAt: sql`now()` })
      .where(and(eq(sites.id, id), eq(sites.version, version)))
      .returning();
    if (row) await bump(tx);
    return row ?? null;
  });
}

export async function deleteSite(db: Database, id: number, version: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const deleted = await tx
      .delete(sites)
      .where(and(eq(sites.id, id), eq(sites.version, version)))
      .returning({ id: sites.id });
    if (deleted.length > 0) await bump(tx);
    return deleted.length > 0;
  });
}

/**
 * Adds one site unless its ref is taken ('taken') or the sites would then number more than
 * `limit` ('full'); nothing is written then. Under the imports' lock, so a create and an import
 * cannot both take the last place or the same ref.
 */
export async function insertSite(
  db: Database,
  values: SiteValues,
  limit: number,
): Promise<SiteRow | 'taken' | 'full'> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${SITES_LOCK}))`);
    const [held] = await tx.select({ n: count() }).from(sites);
    if (Number(held?.n ?? 0) >= limit) return 'full';
    // One site per ref (unique index sites_ref_key): a known ref is refused, never replaced.
    const [row] = await tx.insert(sites).values(values).onConflictDoNothing().returning();
    if (!row) return 'taken';
    await bump(tx);
    return row;
  });
}
