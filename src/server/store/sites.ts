import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from './connection.js';
import { sites, sitesRevision } from './sites-schema.js';

export type SiteRow = typeof sites.$inferSelect;
/** What a write sets: everything but the id and the bookkeeping columns. */
export type SiteValues = Omit<SiteRow, 'id' | 'version' | 'createdAt' | 'updatedAt'>;

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

/** 21 columns a row: 2,000 rows stay far below PostgreSQL's 65,535 bind parameters. */
const WRITE_CHUNK = 2_000;
/** Refs looked up per statement when an import matches its rows. */
const READ_CHUNK = 5_000;
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
    const part = refs.slice(i, i + READ_CHUNK);
    found.push(...(await db.select().from(sites).where(inArray(sites.ref, part))));
  }
  return found;
}

class OverLimit extends Error {}

/**
 * Writes an import's rows (new refs inserted, known refs replaced) in one transaction: a process
 * that dies mid-import leaves the sites as they were. Refused (null, nothing written) when the
 * sites would then number more than `limit`: counted after the writes, inside the transaction,
 * which then rolls back; one lock serialises imports, so two cannot both take the last places.
 */
export async function upsertSites(
  db: Database,
  rows: SiteValues[],
  limit: number,
): Promise<{ ids: Map<string, number>; total: number } | null> {
  try {
    return await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${SITES_LOCK}))`);
      const ids = new Map<string, number>();
      for (let i = 0; i < rows.length; i += WRITE_CHUNK) {
        const written = await tx
          .insert(sites)
          .values(rows.slice(i, i + WRITE_CHUNK))
          // One site per ref (unique index sites_ref_key): a known ref is replaced, never doubled.
          .onConflictDoUpdate({
            target: sites.ref,
            set: {
              name: sql`excluded.name`,
              kind: sql`excluded.kind`,
              lat: sql`excluded.lat`,
              lng: sql`excluded.lng`,
              iso: sql`excluded.iso`,
              placedBy: sql`excluded.placed_by`,
              people: sql`excluded.people`,
              value: sql`excluded.value`,
              currency: sql`excluded.currency`,
              tags: sql`excluded.tags`,
              tripFrom: sql`excluded.trip_from`,
              tripTo: sql`excluded.trip_to`,
              nearby: sql`excluded.nearby`,
              alertOn: sql`excluded.alert_on`,
              alertRadiusKm: sql`excluded.alert_radius_km`,
              alertMinDelta: sql`excluded.alert_min_delta`,
              version: sql`${sites.version} + 1`,
              updatedAt: sql`now()`,
            },
          })
          .returning({ id: sites.id, ref: sites.ref });
        for (const w of written) ids.set(w.ref, w.id);
      }
      const [held] = await tx.select({ n: count() }).from(sites);
      const total = Number(held?.n ?? 0);
      // Past the limit: the whole import is rolled back, so nothing of it is half-written.
      if (total > limit) throw new OverLimit();
      if (rows.length > 0) await bump(tx);
      return { ids, total };
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
