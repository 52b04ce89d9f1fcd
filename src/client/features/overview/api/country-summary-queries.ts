import { bffQueries } from '../../../lib/bff-queries';

/**
 * Every country of the latest batch, or of the batch `asOf` names (`/api/countries`): the global
 * summary, map and search.
 */
export const countrySummaryQueries = {
  all: () => ['countries'] as const,
  /** The one definition of that URL's query (lib/bff-queries), shared with the tier scale. */
  list: (asOf: string | null = null) => bffQueries.countries(asOf),
};
