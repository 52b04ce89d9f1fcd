import { queryOptions } from '@tanstack/react-query';
import { bffQueries } from '../../../lib/bff-queries';

/**
 * `/api/changes?since=previous` for the "updated to a new batch" notice: how many countries
 * changed tier, read from the same query as What changed. Only a comparison that ends at the
 * announced batch counts for it (null otherwise). A BFF without the history store answers 404:
 * the query fails and the notice announces the batch alone.
 */
export const changesQueries = {
  sincePrevious: (asOf: string) =>
    queryOptions({
      ...bffQueries.changes('previous'),
      select: ({ data }) =>
        data.to_batch?.as_of === asOf
          ? { tierChanges: data.countries.filter((c) => c.tier_change !== null).length }
          : null,
    }),
};
