import { bffQueries } from '../../../lib/bff-queries';
import type { RiskIndex } from '../../../../shared/team-index-api';
import type { ChangesSince } from '../utils/since';

/** `/api/changes?since=` (one definition, shared with the new-batch notice and the brief). */
export const changesQueries = {
  all: () => ['changes'] as const,
  since: (since: ChangesSince, asOf: string | null = null, index: RiskIndex = 'provider') =>
    bffQueries.changes(since, asOf, index),
  /** `/api/country/:iso/explain`: one country's move between the two batches compared. */
  explain: bffQueries.explain,
};
