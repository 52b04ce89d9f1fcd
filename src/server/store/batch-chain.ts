import { createHash } from 'node:crypto';
import { and, asc, desc, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import { GENESIS_ID, type BatchContent } from '../../shared/batches-api.js';
import { canonicalJson } from '../../shared/canonical-json.js';
import { batchChain } from './batch-chain-schema.js';
import type { Database } from './connection.js';
import { batches, countryRows } from './schema.js';
import { lockRecording } from './series.js';

type Tx = Pick<Database, 'execute' | 'select' | 'delete' | 'insert' | 'update'>;
export type ChainEntry = typeof batchChain.$inferSelect;
type BatchRow = typeof batches.$inferSelect;
type CountryRow = typeof countryRows.$inferSelect;

/**
 * Batches chained per transaction by the backfill (each ~175 rows): small, because PGlite runs a
 * transaction on the main thread and requests wait meanwhile.
 */
const BACKFILL_CHUNK = 20;

/** A stored country row in the API's field names (what a batch's id covers of it). */
export function countryRowFields(row: CountryRow): BatchContent['countries'][number] {
  return {
    iso: row.iso,
    name: row.name,
    risk: row.risk,
    tier: row.tier,
    static: row.static,
    active: row.active,
    delta_active: row.deltaActive,
    delta_headline: row.deltaHeadline,
    confidence: row.confidence,
    profile: row.profile,
    threat_vectors: row.threatVectors,
    source_count: row.sourceCount,
    categories: row.categories,
  };
}

/** What a batch's id covers: the numbers as stored, countries sorted by iso. */
export function batchContent(batch: BatchRow, rows: readonly CountryRow[]): BatchContent {
  const countries = [...rows]
    .sort((a, b) => (a.iso < b.iso ? -1 : a.iso > b.iso ? 1 : 0))
    .map(countryRowFields);
  return {
    as_of: batch.asOf.toISOString(),
    methodology_version: batch.methodologyVersion,
    global: {
      index: batch.globalIndex,
      static: batch.globalStatic,
      active: batch.globalActive,
      events_24h: batch.events24h,
      tier: batch.globalTier,
      tier_counts: batch.tierCounts,
      received: (batch.global as Record<string, unknown> | null) ?? null,
    },
    countries,
  };
}

/** A batch's id: sha-256 (hex) of the previous id, a newline, and its canonical content. */
export function chainDigest(previousId: string, content: BatchContent): string {
  return createHash('sha256')
    .update(`${previousId}\n${canonicalJson(content)}`)
    .digest('hex');
}

async function lastEntry(tx: Tx): Promise<ChainEntry | null> {
  const [row] = await tx.select().from(batchChain).orderBy(desc(batchChain.position)).limit(1);
  return row ?? null;
}

/**
 * Chains a batch just written, in its recording transaction (after `lockRecording`, so two
 * processes never take the same position), from its rows as stored: the id is what a
 * verification recomputes later. Nothing happens for a batch already chained.
 */
export async function appendToChain(tx: Tx, batchId: number): Promise<void> {
  const [chained] = await tx
    .select({ position: batchChain.position })
    .from(batchChain)
    .where(eq(batchChain.batchId, batchId));
  if (chained) return;
  const [batch] = await tx.select().from(batches).where(eq(batches.id, batchId));
  if (!batch || batch.countryCount === 0) return;
  const rows = await tx.select().from(countryRows).where(eq(countryRows.batchId, batchId));
  const last = await lastEntry(tx);
  await tx.insert(batchChain).values({
    position: (last?.position ?? 0) + 1,
    batchId,
    asOf: batch.asOf,
    digest: chainDigest(last?.digest ?? GENESIS_ID, batchContent(batch, rows)),
  });
}

/**
 * Chains up to one chunk of the batches recorded before the chain existed, oldest first, in one
 * transaction (two reads for the chunk's content, one insert); returns how many were chained
 * (0: nothing left). Run by the background backfill (batch-chain-backfill.ts).
 */
export async function chainUnchainedBatches(db: Database): Promise<number> {
  return db.transaction(async (tx) => {
    await lockRecording(tx);
    const pending = await tx
      .select({ id: batches.id })
      .from(batches)
      .leftJoin(batchChain, eq(batchChain.batchId, batches.id))
      .where(and(gt(batches.countryCount, 0), isNull(batchChain.position)))
      .orderBy(asc(batches.asOf))
      .limit(BACKFILL_CHUNK);
    if (pending.length === 0) return 0;
    const contents = await selectBatchContents(
      tx,
      pending.map((row) => row.id),
    );
    const last = await lastEntry(tx);
    let position = last?.position ?? 0;
    let previousId = last?.digest ?? GENESIS_ID;
    const entries: ChainEntry[] = [];
    for (const { id } of pending) {
      const content = contents.get(id);
      if (!content) continue;
      position += 1;
      previousId = chainDigest(previousId, content);
      entries.push({
        position,
        batchId: id,
        asOf: new Date(content.as_of),
        digest: previousId,
        pruned: false,
      });
    }
    if (entries.length > 0) await tx.insert(batchChain).values(entries);
    return pending.length;
  });
}

/**
 * Retention removed batches: their entries stay, marked, so the batches after them still link;
 * the leading run of pruned entries is dropped but for its last, which anchors the chain.
 */
export async function markPruned(tx: Tx, batchIds: readonly number[]): Promise<void> {
  if (batchIds.length > 0) {
    await tx
      .update(batchChain)
      .set({ pruned: true })
      .where(inArray(batchChain.batchId, [...batchIds]));
  }
  await tx.execute(sql`
    delete from batch_chain where pruned and position < (
      select coalesce(min(position), (select max(position) + 1 from batch_chain)) - 1
      from batch_chain where not pruned)`);
}

/** The chain's entries of batches still held, newest `as_of` first, before `before`. */
export async function selectChainPage(
  db: Database,
  before: Date | null,
  limit: number,
): Promise<ChainEntry[]> {
  return db
    .select()
    .from(batchChain)
    .where(and(eq(batchChain.pruned, false), before ? lt(batchChain.asOf, before) : undefined))
    .orderBy(desc(batchChain.asOf))
    .limit(limit);
}

export async function selectChainEntry(db: Database, digest: string): Promise<ChainEntry | null> {
  const [row] = await db.select().from(batchChain).where(eq(batchChain.digest, digest));
  return row ?? null;
}

export async function selectChainEntryOfBatch(
  db: Database,
  batchId: number,
): Promise<ChainEntry | null> {
  const [row] = await db.select().from(batchChain).where(eq(batchChain.batchId, batchId));
  return row ?? null;
}

export async function selectChainAt(db: Database, position: number): Promise<ChainEntry | null> {
  const [row] = await db.select().from(batchChain).where(eq(batchChain.position, position));
  return row ?? null;
}

/** Up to `limit` entries after `afterPosition`, in chain order. */
export async function selectChainRun(
  db: Database,
  afterPosition: number,
  limit: number,
): Promise<ChainEntry[]> {
  return db
    .select()
    .from(batchChain)
    .where(gt(batchChain.position, afterPosition))
    .orderBy(asc(batchChain.position))
    .limit(limit);
}

/** The batch rows and country rows of `batchIds` (one read each). */
export async function selectBatchContents(
  db: Tx,
  batchIds: readonly number[],
): Promise<Map<number, BatchContent>> {
  const out = new Map<number, BatchContent>();
  if (batchIds.length === 0) return out;
  const ids = [...batchIds];
  const batchRows = await db.select().from(batches).where(inArray(batches.id, ids));
  const rows = await db.select().from(countryRows).where(inArray(countryRows.batchId, ids));
  const byBatch = new Map<number, CountryRow[]>();
  for (const row of rows) {
    const own = byBatch.get(row.batchId);
    if (own) own.push(row);
    else byBatch.set(row.batchId, [row]);
  }
  for (const batch of batchRows) {
    out.set(batch.id, batchContent(batch, byBatch.get(batch.id) ?? []));
  }
  return out;
}

/** The chain ids of `batchIds` (those chained). */
export async function selectChainIds(
  db: Database,
  batchIds: readonly number[],
): Promise<Map<number, string>> {
  if (batchIds.length === 0) return new Map();
  const rows = await db
    .select({ batchId: batchChain.batchId, digest: batchChain.digest })
    .from(batchChain)
    .where(inArray(batchChain.batchId, [...batchIds]));
  return new Map(rows.map((row) => [row.batchId, row.digest]));
}
