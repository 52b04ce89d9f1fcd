import { and, asc, count, desc, eq, gt, gte, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { CATEGORY_NAMES } from '../../shared/categories.js';
import { rowsOf, type Database } from './connection.js';
import { countryRows } from './schema.js';
import { batchScores, countryOverrides, indexWeights } from './team-index-schema.js';

export type IndexWeightsRow = typeof indexWeights.$inferSelect;
export type OverrideRow = typeof countryOverrides.$inferSelect;

/** Every version of the weights, oldest first (one row per admin change: few). */
export async function selectWeightVersions(
  db: Database,
  limit: number,
): Promise<IndexWeightsRow[]> {
  const rows = await db
    .select()
    .from(indexWeights)
    .orderBy(desc(indexWeights.version))
    .limit(limit);
  return rows.reverse();
}

/**
 * Adds a version of the weights made against `version` (0: none set yet), compare-and-set under
 * a transaction-scoped advisory lock so two admins saving at once never both win. Null when
 * `version` is no longer the newest.
 */
export async function insertWeights(
  db: Database,
  row: Omit<IndexWeightsRow, 'version'>,
  version: number,
): Promise<IndexWeightsRow | null> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(7190424031)`);
    const [newest] = await tx
      .select({ version: indexWeights.version })
      .from(indexWeights)
      .orderBy(desc(indexWeights.version))
      .limit(1);
    if ((newest?.version ?? 0) !== version) return null;
    const [saved] = await tx.insert(indexWeights).values(row).returning();
    return saved ?? null;
  });
}

/** Overrides in force, by country. */
export async function selectOverridesInForce(db: Database): Promise<OverrideRow[]> {
  return db
    .select()
    .from(countryOverrides)
    .where(isNull(countryOverrides.endedAt))
    .orderBy(asc(countryOverrides.iso));
}

/** Overrides that were in force at `at` (set by then, not ended by then). */
export async function selectOverridesAt(db: Database, at: Date): Promise<OverrideRow[]> {
  return db
    .select()
    .from(countryOverrides)
    .where(
      and(
        lte(countryOverrides.setAt, at),
        or(isNull(countryOverrides.endedAt), gt(countryOverrides.endedAt, at)),
      ),
    )
    .orderBy(asc(countryOverrides.iso));
}

export async function selectOverride(db: Database, iso: string): Promise<OverrideRow | null> {
  const [row] = await db
    .select()
    .from(countryOverrides)
    .where(and(eq(countryOverrides.iso, iso), isNull(countryOverrides.endedAt)));
  return row ?? null;
}

/** Why a write of an override did not happen. */
export type OverrideRefusal = 'stale' | 'full';

/**
 * Sets or changes a country's override made against `version` (0: none in force), in one
 * transaction: a change ends the row in force and writes the next version, so what was in force
 * when stays readable. `full` when a new one would pass `max` in force.
 */
export async function writeOverride(
  db: Database,
  row: Pick<OverrideRow, 'iso' | 'tier' | 'reason' | 'expiresAt' | 'setAt' | 'setBy'>,
  version: number,
  max: number,
): Promise<OverrideRow | OverrideRefusal> {
  return db.transaction(async (tx) => {
    // One writer of overrides at a time: the count and the compare-and-set hold together.
    await tx.execute(sql`select pg_advisory_xact_lock(7190424032)`);
    const [current] = await tx
      .select()
      .from(countryOverrides)
      .where(and(eq(countryOverrides.iso, row.iso), isNull(countryOverrides.endedAt)));
    if ((current?.version ?? 0) !== version) return 'stale';
    if (!current) {
      const [inForce] = await tx
        .select({ n: count() })
        .from(countryOverrides)
        .where(isNull(countryOverrides.endedAt));
      if ((inForce?.n ?? 0) >= max) return 'full';
    } else {
      await tx
        .update(countryOverrides)
        .set({ endedAt: row.setAt, endedHow: 'changed' })
        .where(eq(countryOverrides.id, current.id));
    }
    const [saved] = await tx
      .insert(countryOverrides)
      .values({ ...row, version: version + 1 })
      .returning();
    if (!saved) throw new Error('the override was not written');
    return saved;
  });
}

/** Ends the override in force made against `version`; null when it is not (any more). */
export async function endOverride(
  db: Database,
  iso: string,
  version: number,
  at: Date,
  how: 'deleted' | 'expired',
): Promise<OverrideRow | null> {
  const [ended] = await db
    .update(countryOverrides)
    .set({ endedAt: at, endedHow: how })
    .where(
      and(
        eq(countryOverrides.iso, iso),
        eq(countryOverrides.version, version),
        isNull(countryOverrides.endedAt),
      ),
    )
    .returning();
  return ended ?? null;
}

/** Overrides in force whose expiry has come, at most `limit`, soonest first. */
export async function selectExpiredOverrides(
  db: Database,
  now: Date,
  limit: number,
): Promise<OverrideRow[]> {
  return db
    .select()
    .from(countryOverrides)
    .where(and(isNull(countryOverrides.endedAt), lte(countryOverrides.expiresAt, now)))
    .orderBy(asc(countryOverrides.expiresAt))
    .limit(limit);
}

/** When the next override in force expires (null: none in force). */
export async function nextOverrideExpiry(db: Database): Promise<Date | null> {
  const [row] = await db
    .select({ at: countryOverrides.expiresAt })
    .from(countryOverrides)
    .where(isNull(countryOverrides.endedAt))
    .orderBy(asc(countryOverrides.expiresAt))
    .limit(1);
  return row?.at ?? null;
}

/** One batch's team index of each country read (null: no weighted category has a score). */
export type TeamIndexes = Map<string, number | null>;

/**
 * The team index of every country of `batchIds` (of `isos` only, when given), computed in SQL
 * from the stored categories with `weights`: Σ wₖ·scoreₖ and Σ wₖ over the categories that have
 * a score, summed in the categories' documented order so the quotient is the same float as
 * `teamIndexOf` (src/shared/team-index-api.ts) computes, then rounded the same way.
 */
export async function selectTeamIndexes(
  db: Database,
  batchIds: readonly number[],
  weights: Record<string, number>,
  isos: readonly string[] | null,
): Promise<Map<number, TeamIndexes>> {
  const byBatch = new Map<number, TeamIndexes>(batchIds.map((id) => [id, new Map()]));
  const names = CATEGORY_NAMES.filter((name) => (weights[name] ?? 0) > 0);
  if (batchIds.length === 0 || names.length === 0) return byBatch;
  // Category names come from the fixed documented list (never from a request): literals.
  const key = (name: string) => sql.raw(`'${name}'`);
  const scored = (name: string) =>
    sql`jsonb_typeof(${countryRows.categories}->${key(name)}->'score') = 'number'`;
  const sum = sql.join(
    names.map(
      (name) =>
        sql`coalesce(case when ${scored(name)} then ${weights[name]}::float8 * (${countryRows.categories}->${key(name)}->>'score')::float8 end, 0)`,
    ),
    sql` + `,
  );
  const weightSum = sql.join(
    names.map((name) => sql`case when ${scored(name)} then ${weights[name]}::float8 else 0 end`),
    sql` + `,
  );
  const rows = await db
    .select({
      batchId: countryRows.batchId,
      iso: countryRows.iso,
      sum: sql<number>`${sum}`.mapWith(Number),
      weightSum: sql<number>`${weightSum}`.mapWith(Number),
    })
    .from(countryRows)
    .where(
      and(
        // The range lets the planner read the primary key's range of these batches (callers
        // pass consecutive batches) rather than test the list against every row.
        gte(countryRows.batchId, Math.min(...batchIds)),
        lte(countryRows.batchId, Math.max(...batchIds)),
        inArray(countryRows.batchId, [...batchIds]),
        isos ? inArray(countryRows.iso, [...isos]) : undefined,
      ),
    );
  for (const row of rows) {
    const value = row.weightSum > 0 ? Math.round((row.sum / row.weightSum) * 100) / 100 : null;
    byBatch.get(row.batchId)?.set(row.iso, value);
  }
  return byBatch;
}

/**
 * One country's category scores as `batch_scores` keeps them: a JSON array in the documented
 * order, null where the stored categories have no numeric score (the number's text is kept, so
 * it parses to the same float the SQL above reads).
 */
const scoreArray = sql.raw(
  `json_build_array(${CATEGORY_NAMES.map(
    (name) =>
      `case when jsonb_typeof(r.categories->'${name}'->'score') = 'number' then r.categories->'${name}'->'score' end`,
  ).join(', ')})`,
);

/** Writes a just-recorded batch's compact scores from its country rows (its own transaction). */
export async function writeBatchScores(
  tx: Pick<Database, 'execute'>,
  batchId: number,
): Promise<void> {
  await tx.execute(sql`
    insert into batch_scores (batch_id, scores)
    select r.batch_id, json_object_agg(trim(r.iso), ${scoreArray})
    from country_rows r
    where r.batch_id = ${batchId}
    group by r.batch_id
    on conflict (batch_id) do update set scores = excluded.scores`);
}

/**
 * Recorded batches that have no compact scores yet, oldest first, at most `limit`: those a store
 * migrated to 0012 before the backfill left the migration (issue 31), or recorded by an older
 * process on a shared PostgreSQL. The filler (jobs/batch-scores-fill.ts) writes them.
 */
export async function selectBatchesWithoutScores(db: Database, limit: number): Promise<number[]> {
  const rows = rowsOf(
    await db.execute(sql`
      select b.id from batches b
      where not exists (select 1 from ${batchScores} s where s.batch_id = b.id)
      order by b.id limit ${limit}`),
  );
  return rows.map((row) => Number(row.id));
}

/** How many recorded batches have no compact scores yet (what "computing" waits for). */
export async function countBatchesWithoutScores(db: Database): Promise<number> {
  const rows = rowsOf(
    await db.execute(sql`
      select count(*) as n from batches b
      where not exists (select 1 from ${batchScores} s where s.batch_id = b.id)`),
  );
  return Number(rows[0]?.n ?? 0);
}

/**
 * Writes the compact scores of `batchIds` from their rows, as recording does (a batch without
 * rows gets `{}`, so it is never looked for again); one statement, the caller keeps it to a few
 * batches. A batch that has its row already keeps it.
 */
export async function fillBatchScores(db: Database, batchIds: readonly number[]): Promise<void> {
  if (batchIds.length === 0) return;
  await db.execute(sql`
    insert into batch_scores (batch_id, scores)
    select b.id, coalesce(
      (select json_object_agg(trim(r.iso), ${scoreArray}) from country_rows r
       where r.batch_id = b.id),
      '{}'::json)
    from batches b
    where b.id >= ${Math.min(...batchIds)} and b.id <= ${Math.max(...batchIds)}
      and b.id = any(${`{${batchIds.join(',')}}`}::bigint[])
    on conflict (batch_id) do nothing`);
}

/**
 * Up to `limit` countries' compact scores of one batch after `afterIso` (trimmed), in ISO order,
 * as recording computes them: the background filler reads a batch a few rows a statement
 * (issue 31: a whole batch in one statement held the thread up to 168 ms at load 8).
 */
export async function selectScoreArrays(
  db: Database,
  batchId: number,
  afterIso: string,
  limit: number,
): Promise<Array<{ iso: string; scores: Array<number | null> }>> {
  const rows = rowsOf(
    await db.execute(sql`
      select trim(r.iso) as iso, ${scoreArray}::text as scores from country_rows r
      where r.batch_id = ${batchId} and r.iso > ${afterIso}
      order by r.iso limit ${limit}`),
  );
  return rows.map((row) => ({
    iso: String(row.iso),
    scores: JSON.parse(String(row.scores)) as Array<number | null>,
  }));
}

/** Writes one batch's compact scores the filler put together; a batch that has its row keeps it. */
export async function insertBatchScores(
  db: Database,
  batchId: number,
  scores: Record<string, Array<number | null>>,
): Promise<void> {
  await db.execute(sql`
    insert into batch_scores (batch_id, scores) values (${batchId}, ${JSON.stringify(scores)}::json)
    on conflict (batch_id) do nothing`);
}

/** One batch's compact scores as stored (JSON text, parsed by the caller a batch at a time). */
export interface BatchScoresText {
  batchId: number;
  text: string;
}

/** The compact scores of `batchIds` that have them (a batch without is read from its rows). */
export async function selectBatchScores(
  db: Database,
  batchIds: readonly number[],
): Promise<BatchScoresText[]> {
  if (batchIds.length === 0) return [];
  const rows = rowsOf(
    await db.execute(sql`
      select batch_id, scores::text as text from ${batchScores}
      where batch_id >= ${Math.min(...batchIds)} and batch_id <= ${Math.max(...batchIds)}
        and batch_id = any(${`{${batchIds.join(',')}}`}::bigint[])`),
  );
  return rows.map((row) => ({ batchId: Number(row.batch_id), text: String(row.text) }));
}

/**
 * The compact scores of the batches recorded at `times` (What changed's two batches in the team
 * view), keyed by time in ms; a batch whose row the filler has not written yet is absent.
 */
export async function selectBatchScoresAt(
  db: Database,
  times: readonly Date[],
): Promise<Map<number, Record<string, Array<number | null>>>> {
  const found = new Map<number, Record<string, Array<number | null>>>();
  if (times.length === 0) return found;
  const rows = rowsOf(
    await db.execute(sql`
      select b.as_of, s.scores::text as text from batches b
      join ${batchScores} s on s.batch_id = b.id
      where b.as_of = any(${`{${times.map((t) => t.toISOString()).join(',')}}`}::timestamptz[])`),
  );
  for (const row of rows) {
    const at = row.as_of instanceof Date ? row.as_of : new Date(String(row.as_of));
    found.set(at.getTime(), JSON.parse(String(row.text)) as Record<string, Array<number | null>>);
  }
  return found;
}
