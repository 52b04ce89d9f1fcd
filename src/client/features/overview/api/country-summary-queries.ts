import { bffQueries } from '../../../lib/bff-queries';

/** Every country of the latest batch (`/api/countries`): the global summary, map and search. */
export const countrySummaryQueries = {
  all: () => ['countries'] as const,
  /** The one definition of that URL's query (lib/bff-queries), shared with the tier scale. */
  list: () => bffQueries.countries(),
};
