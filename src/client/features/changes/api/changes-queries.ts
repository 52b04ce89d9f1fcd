import { bffQueries } from '../../../lib/bff-queries';
import type { ChangesSince } from '../utils/since';

/** `/api/changes?since=` (one definition, shared with the new-batch notice and the brief). */
export const changesQueries = {
  all: () => ['changes'] as const,
  since: (since: ChangesSince, asOf: string | null = null) => bffQueries.changes(since, asOf),
  /** `/api/country/:iso/explain`: one country's move between the two batches compared. */
  explain: bffQueries.explain,
};
