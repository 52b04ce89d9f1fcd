import type { MethodMark } from '../../../shared/method-api.js';
import type { HistoryStore } from '../../store/history-store.js';
import { selectMethodChanges } from '../../store/method-changes.js';

/**
 * The provider's method changes as the history answers carry them (issue 31): each point's
 * method is the `to` of the last change at or before it, else the first change's `from`. Read
 * per answer, not memoised with the series: an admin's "comparable" changes no batch revision.
 */
export async function methodMarks(store: HistoryStore): Promise<MethodMark[]> {
  return (await selectMethodChanges(store.db)).map((row) => ({
    as_of: row.asOf.toISOString(),
    from: row.from,
    to: row.to,
    comparable: row.comparable,
  }));
}
