import { bffQueries } from '../../../lib/bff-queries';

/** `/api/v1/country/:iso` and its explanation (one definition each, shared: lib/bff-queries). */
export const countryQueries = {
  all: () => ['country'] as const,
  detail: bffQueries.country,
  /** `/api/country/:iso/explain`: why it moved since the batch before (issue 22). */
  explain: bffQueries.explain,
  /** `/api/history/country/:iso` (the trend panel's, same cache entry): which batches hold it. */
  history: bffQueries.historyCountry,
};
