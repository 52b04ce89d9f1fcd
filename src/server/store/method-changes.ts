import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { rowsOf, type Database } from './connection.js';
import { methodDecisions } from './method-notes-schema.js';
import { batches } from './schema.js';

/**
 * The provider's method changes (issue 31): a batch with country rows whose
 * `methodology_version` differs from the one of the batch with country rows before it. Derived
 * from `batches` (nothing to keep in step); an admin's decision that one is comparable after all
 * is the only thing stored (`method_decisions`). A batch with no version named is no change.
 */
export interface MethodChangeRow {
  batchId: number;
  asOf: Date;
  from: string;
  to: string;
  /** An admin said the scores are comparable across it (the held rules run after all). */
  comparable: boolean;
  decidedBy: string | null;
  decidedAt: Date | null;
  evaluatedAt: Date | null;
}

// Method changes are rare (a provider's version, not a batch's): 1,000 bounds the answer and
// the work of every reader whatever the upstream does.
export const METHOD_CHANGES_MAX = 1_000;

const asDate = (value: unknown): Date | null =>
  value === null || value === undefined ? null : new Date(value as string);

/** Every method change held, oldest first (at most METHOD_CHANGES_MAX, the newest ones). */
export async function selectMethodChanges(db: Database): Promise<MethodChangeRow[]> {
  const rows = rowsOf(
    await db.execute(sql`
      select c.id, c.as_of, c.previous, c.methodology_version, d.comparable, d.decided_by,
             d.decided_at, d.evaluated_at
      from (
        select id, as_of, methodology_version,
               lag(methodology_version) over (order by as_of) as previous
        from batches where country_count > 0
      ) c
      left join method_decisions d on d.batch_id = c.id
      where c.previous is not null and c.methodology_version is not null
        and c.previous <> c.methodology_version
      order by c.as_of desc limit ${METHOD_CHANGES_MAX}`),
  );
  return rows
    .map((row) => ({
      batchId: Number(row.id),
      asOf: new Date(row.as_of as string),
      from: String(row.previous),
      to: String(row.methodology_version),
      comparable: row.comparable === true,
      decidedBy: (row.decided_by as string | null) ?? null,
      decidedAt: asDate(row.decided_at),
      evaluatedAt: asDate(row.evaluated_at),
    }))
    .reverse();
}

/**
 * Records that the change of `batchId` is comparable after all. True when this call decided it
 * (a second call finds the row and changes nothing: the held rules are released once).
 */
export async function insertComparable(
  db: Database,
  batchId: number,
  by: string,
  at: Date,
): Promise<boolean> {
  const inserted = await db
    .insert(methodDecisions)
    .values({ batchId, comparable: true, decidedBy: by, decidedAt: at })
    .onConflictDoNothing()
    .returning({ batchId: methodDecisions.batchId });
  return inserted.length > 0;
}

/**
 * Claims the one evaluation of a comparable change's held rules: true for exactly one caller
 * (the update of a null `evaluated_at`), so a retry or a second replica evaluates nothing twice.
 */
export async function claimComparableEvaluation(
  db: Database,
  batchId: number,
  at: Date,
): Promise<boolean> {
  const claimed = await db
    .update(methodDecisions)
    .set({ evaluatedAt: at })
    .where(and(eq(methodDecisions.batchId, batchId), isNull(methodDecisions.evaluatedAt)))
    .returning({ batchId: methodDecisions.batchId });
  return claimed.length > 0;
}

/** The change `batchId` makes from `previousId`'s method, or null when it makes none. */
export async function selectMethodChangeBetween(
  db: Database,
  batchId: number,
  previousId: number,
): Promise<Pick<MethodChangeRow, 'from' | 'to' | 'comparable'> | null> {
  const rows = rowsOf(
    await db.execute(sql`
      select b.id, b.methodology_version, d.comparable
      from batches b left join method_decisions d on d.batch_id = b.id
      where b.id in (${batchId}, ${previousId})`),
  );
  const of = (id: number) => rows.find((row) => Number(row.id) === id);
  const to = of(batchId)?.methodology_version as string | null | undefined;
  const from = of(previousId)?.methodology_version as string | null | undefined;
  if (!to || !from || to === from) return null;
  return { from, to, comparable: of(batchId)?.comparable === true };
}

/** The methodology version of each of `batchIds` (null: the upstream named none). */
export async function selectBatchMethods(
  db: Database,
  batchIds: readonly number[],
): Promise<Map<number, string | null>> {
  if (batchIds.length === 0) return new Map();
  const rows = await db
    .select({ id: batches.id, method: batches.methodologyVersion })
    .from(batches)
    .where(inArray(batches.id, [...batchIds]));
  return new Map(rows.map((row) => [row.id, row.method]));
}
