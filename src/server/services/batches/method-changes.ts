import type { MethodChangeView } from '../../../shared/method-api.js';
import type { HistoryStore } from '../../store/history-store.js';
import {
  claimComparableEvaluation,
  insertComparable,
  selectMethodChanges,
  type MethodChangeRow,
} from '../../store/method-changes.js';
import { NotFound } from '../../refusals.js';

/**
 * The provider's method changes as the API shows them (issue 31), and an admin's decision that
 * one is comparable after all: recorded once, then the rules it held are evaluated once.
 */
export class MethodChanges {
  constructor(
    private readonly store: HistoryStore,
    private readonly deps: {
      now: () => number;
      /** Evaluates the rules the change of this batch (row id) held; resolves to alerts added. */
      releaseHeld: (batchId: number) => Promise<number>;
    },
  ) {}

  /** Every change held, oldest first, each with its batch's citable id. */
  async list(): Promise<MethodChangeView[]> {
    const rows = await selectMethodChanges(this.store.db);
    const ids = await this.store.chainIds(rows.map((row) => row.batchId));
    return rows.map((row) => view(row, ids.get(row.batchId) ?? null));
  }

  /** Marks the change made by the batch with citable id `digest` comparable. */
  async markComparable(
    digest: string,
    by: string,
  ): Promise<{ before: MethodChangeView; after: MethodChangeView; released: number }> {
    const entry = await this.store.chainEntry(digest);
    const rows = await selectMethodChanges(this.store.db);
    const row = entry ? rows.find((r) => r.batchId === entry.batchId) : undefined;
    if (!entry || !row) {
      throw new NotFound(
        `no method change is held here at the batch ${digest}: GET /api/method-changes lists them`,
      );
    }
    const at = new Date(this.deps.now());
    await insertComparable(this.store.db, row.batchId, by, at);
    // The history answers hold the changes with their decisions: built again from now on.
    this.store.methodDecided();
    let released = 0;
    // The alerts' unique key makes a second evaluation add nothing; the claim after it keeps
    // the record of when it ran (a failure before it leaves the claim for the next PUT).
    const decided = (await selectMethodChanges(this.store.db)).find(
      (r) => r.batchId === row.batchId,
    );
    if (decided && decided.evaluatedAt === null) {
      released = await this.deps.releaseHeld(row.batchId);
      await claimComparableEvaluation(this.store.db, row.batchId, at);
    }
    return {
      before: view(row, digest),
      after: view(decided ?? row, digest),
      released,
    };
  }
}

function view(row: MethodChangeRow, batchId: string | null): MethodChangeView {
  return {
    batch_id: batchId,
    as_of: row.asOf.toISOString(),
    from: row.from,
    to: row.to,
    comparable: row.comparable,
    decided_by: row.decidedBy,
    decided_at: row.decidedAt?.toISOString() ?? null,
  };
}
