import { bffQueries } from '../../../lib/bff-queries';
import type { RiskIndex } from '../../../../shared/team-index-api';

/**
 * Every country of the latest batch, or of the batch `asOf` names (`/api/countries`): the global
 * summary, map and search.
 */
export const countrySummaryQueries = {
  all: () => ['countries'] as const,
  /** The one definition of that URL's query (lib/bff-queries), shared with the tier scale. */
  list: (asOf: string | null = null, index: RiskIndex = 'provider') =>
    bffQueries.countries(asOf, index),
};
